/* The program of the layer checks (CMakeLists.txt, layers_<module>): it
 * calls nothing; what matters is the link, which takes every object of
 * one module's library and only the libraries below it. */
int main(void)
{
    return 0;
}
