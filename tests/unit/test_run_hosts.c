/* Unit tests for run/hosts.c: [hosts] servers and remote parsed and
 * validated (exact path:line messages), the template split once into
 * words with {host} one argv element, the per-host pools and vdev files,
 * fio's host names matched back to the plan's entries, and a dry run's
 * commands: a --client and job file per server, each server's commands
 * named in the listing and, through a template, single-quoted for the
 * remote shell. No root and no ZFS needed. */
#define _GNU_SOURCE
#include "tests/unit/run_help.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VD "vdevs = file:/tmp/pb-unit-hosts-d0.img:128M\n"
#define FIO "[fio]\nrw = randread\nsize = 8m\nruntime = 1\n"

static void test_hosts_parse(void **state)
{
    (void)state;
    struct pb_run_plan *p = parse_ok(
        "[plan]\npool = pbh\n" VD "[hosts]\n"
        "servers = localhost:18765, nas-2.example.org,\n"
        "          [::1]:8766 , 10.0.0.7:9000, sock:/run/fio.sock\n"
        "remote = ssh -o BatchMode=yes root@{host}\n" FIO);
    const struct pb_run_hosts *h = &p->hosts;
    assert_int_equal(h->n, 5);
    static const char *const entry[] = {"localhost:18765", "nas-2.example.org",
                                        "[::1]:8766", "10.0.0.7:9000",
                                        "sock:/run/fio.sock"};
    static const char *const name[] = {"localhost", "nas-2.example.org",
                                       "::1", "10.0.0.7", "/run/fio.sock"};
    static const char *const client[] = {"localhost,18765", "nas-2.example.org",
                                         "ip6:::1,8766", "10.0.0.7,9000",
                                         "sock:/run/fio.sock"};
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(h->h[i].entry, entry[i]);
        assert_string_equal(h->h[i].name, name[i]);
        assert_string_equal(h->h[i].client, client[i]);
    }
    assert_int_equal(h->h[4].sock, 1);
    assert_int_equal(h->h[0].line, 5);
    assert_int_equal(h->h[3].line, 6);
    /* the template: split once, {host} one word */
    assert_int_equal(h->nremote, 4);
    char **v = pb_run_hosts_remote(p, 2);
    assert_string_equal(v[0], "ssh");
    assert_string_equal(v[1], "-o");
    assert_string_equal(v[2], "BatchMode=yes");
    assert_string_equal(v[3], "root@::1");
    assert_null(v[4]);
    pb_run_hosts_argv_free(v);
    /* a socket is on this machine: no template */
    assert_null(pb_run_hosts_remote(p, 4));
    /* per host: pool and vdev files suffixed */
    struct pb_run_plan *hp = pb_run_host_plan(p, 1);
    assert_string_equal(hp->pool, "pbh-h2");
    assert_string_equal(hp->data.v[0].path, "/tmp/pb-unit-hosts-d0.img-h2");
    assert_int_equal(hp->hosts.n, 0);
    pb_run_host_plan_free(hp);
    /* fio's names back to the entries */
    assert_int_equal(pb_run_hosts_match(p, "localhost"), 0);
    assert_int_equal(pb_run_hosts_match(p, "localhost:18765"), 0);
    assert_int_equal(pb_run_hosts_match(p, "localhost:18766"), -1);
    assert_int_equal(pb_run_hosts_match(p, "nas-2.example.org:8765"), 1);
    assert_int_equal(pb_run_hosts_match(p, "/run/fio.sock"), 4);
    assert_int_equal(pb_run_hosts_match(p, "(all clients)"), -1);
    assert_int_equal(pb_run_hosts_match(p, "local"), -1);
    pb_run_plan_free(p);

    /* two servers on one host: a bare name cannot be told apart */
    p = parse_ok("[plan]\n" VD "[hosts]\nservers = a:1, a:2\nremote = local\n"
                 FIO);
    assert_null(p->hosts.remote);
    assert_int_equal(pb_run_hosts_match(p, "a:2"), 1);
    assert_int_equal(pb_run_hosts_match(p, "a"), -2);
    pb_run_plan_free(p);
}

static void test_hosts_errors(void **state)
{
    (void)state;
    static const struct rh_bad cases[] = {
        {"[plan]\n" VD "[hosts]\nservers = -oProxyCommand=x\nremote = local\n",
         4, "servers: bad host '-oProxyCommand=x' (letters, digits, '.', '-'; "
            "IPv6 in brackets: [::1]:8765; sock:/PATH)"},
        {"[plan]\n" VD "[hosts]\nservers = a;b\nremote = local\n", 4,
         "servers: bad host 'a;b' (letters, digits, '.', '-'; IPv6 in "
         "brackets: [::1]:8765; sock:/PATH)"},
        {"[plan]\n" VD "[hosts]\nservers = h:0\nremote = local\n", 4,
         "servers: 'h:0': port must be 1..65535"},
        {"[plan]\n" VD "[hosts]\nservers = h:65536\nremote = local\n", 4,
         "servers: 'h:65536': port must be 1..65535"},
        {"[plan]\n" VD "[hosts]\nservers = [::1;x]:5\nremote = local\n", 4,
         "servers: '[::1;x]:5': an IPv6 address has hex digits, ':' and '.' "
         "only"},
        {"[plan]\n" VD "[hosts]\nservers = sock:run/x\nremote = local\n", 4,
         "servers: socket path 'run/x' must be absolute"},
        {"[plan]\n" VD "[hosts]\nservers = h:1, h:1\nremote = local\n", 4,
         "servers: 'h:1' is listed twice"},
        {"[plan]\n" VD "[hosts]\nservers = h\nremote = ssh 'h'\n", 5,
         "remote: ''' in the template (it is split into words on blanks, "
         "never run through a shell here; write it without quotes)"},
        {"[plan]\n" VD "[hosts]\nservers = h\nremote = ssh $(id) {host}\n", 5,
         "remote: '$' in the template (it is split into words on blanks, "
         "never run through a shell here; write it without quotes)"},
        {"[plan]\n" VD "[hosts]\nservers = h\nremote = ssh h1\n", 5,
         "remote: the template must name {host} (like: ssh -o "
         "BatchMode=yes {host})"},
        {"[plan]\n" VD "[hosts]\nservers = h\nremote = {host} ssh\n", 5,
         "remote: the template's first word must be a program (like ssh)"},
        {"[plan]\n" VD "[hosts]\nservers = h\nfoo = 1\n", 5,
         "unknown key 'foo' in [hosts] (known: servers, remote)"},
        {"[plan]\n" VD "[hosts]\nservers = h\n" FIO, 4,
         "[hosts] needs 'remote' (local, or a template like: ssh -o "
         "BatchMode=yes {host})"},
        {"[plan]\n" VD "[hosts]\nremote = local\n" FIO, 4,
         "[hosts] needs 'servers' (HOST[:PORT], [IPV6]:PORT or sock:PATH, "
         "comma-separated)"},
        {"[plan]\nvdevs = /dev/sdb\n[hosts]\nservers = h\nremote = local\n"
         FIO, 2,
         "vdev '/dev/sdb': a plan with [hosts] takes file:PATH:SIZE vdevs "
         "only (one set per host)"},
        {"[plan]\n" VD "[hosts]\nservers = h\nremote = local\n" FIO
         "log = bw\n", 4,
         "[fio] log is not available with [hosts] (the logs stay on the "
         "servers)"},
        {"[plan]\n" VD "[hosts]\nservers = h\nremote = local\n" FIO
         "buffer_pattern = ${HOME}\n", 10,
         "[fio] buffer_pattern: '$' is not allowed with [hosts] (job files "
         "are sent as written, with no ${VAR} expansion)"},
    };
    rh_refused(cases, sizeof(cases) / sizeof(cases[0]));
}

static char *dry_run(const char *text, int allow, int *rc, char *msg,
                     size_t n)
{
    struct pb_run_opts o = {0};
    o.dir = "/tmp/pb-unit-hosts-out";
    o.run_id = "unit-h";
    o.impl = PB_RUN_IMPL_ZFS_FUSE;
    o.caps_dir = CAPS_DIR "/zfs-fuse";
    o.allow_remote_command = allow;
    struct pb_err err = {0};
    char *out = rh_dry_run(text, o, rc, &err);
    snprintf(msg, n, "%s", err.msg);
    return out;
}

static void test_hosts_dry_run(void **state)
{
    (void)state;
    int rc;
    char msg[512];
    char *out = dry_run("[plan]\npool = pbh\n" VD "[hosts]\n"
                        "servers = localhost:18765, sock:/tmp/s.sock\n"
                        "remote = local\n" FIO,
                        0, &rc, msg, sizeof(msg));
    assert_int_equal(rc, PB_OK);
    assert_non_null(strstr(out,
        "truncate -s 128M /tmp/pb-unit-hosts-d0.img-h1\n"
        "zpool create -O poolbench:owner=unit-h -m "
        "/tmp/pb-unit-hosts-out/mnt-h1 pbh-h1 /tmp/pb-unit-hosts-d0.img-h1"
        "  # host localhost:18765\n"));
    assert_non_null(strstr(out, "zpool create -O poolbench:owner=unit-h -m "
                                "/tmp/pb-unit-hosts-out/mnt-h2 pbh-h2 "
                                "/tmp/pb-unit-hosts-d0.img-h2  # host "
                                "sock:/tmp/s.sock\n"));
    assert_non_null(strstr(out,
        "# job file /tmp/pb-unit-hosts-out/raw/c001.h2.fio:\n"
        "#   ; poolbench run unit-h, cell 1, host sock:/tmp/s.sock\n"
        "#   [poolbench]\n"
        "#   directory=/tmp/pb-unit-hosts-out/mnt-h2/pb\n"
        "#   rw=randread\n#   size=8m\n#   runtime=1\n"
        "#   group_reporting=1\n"));
    assert_non_null(strstr(out,
        "fio --output-format=json "
        "--output=/tmp/pb-unit-hosts-out/raw/c001.fio.json "
        "--client=localhost,18765 /tmp/pb-unit-hosts-out/raw/c001.h1.fio "
        "--client=sock:/tmp/s.sock /tmp/pb-unit-hosts-out/raw/c001.h2.fio\n"));
    free(out);

    /* a template: its words, then each argument single-quoted */
    out = dry_run("[plan]\npool = pbh\n" VD "[hosts]\n"
                  "servers = nas1, sock:/tmp/s.sock\n"
                  "remote = ssh -o BatchMode=yes {host}\n" FIO,
                  0, &rc, msg, sizeof(msg));
    assert_int_equal(rc, PB_OK);
    assert_non_null(strstr(out,
        "ssh -o BatchMode=yes nas1 ''\\''zpool'\\''' ''\\''create'\\''' "));
    assert_non_null(strstr(out, "ssh -o BatchMode=yes nas1 ''\\''sysctl'\\''' "
                                "''\\''-q'\\''' ''\\''-w'\\''' "
                                "''\\''vm.drop_caches=3'\\'''  # host nas1\n"));
    /* the socket's pool work stays here */
    assert_non_null(strstr(out, "\nzpool create -O poolbench:owner=unit-h -m "
                                "/tmp/pb-unit-hosts-out/mnt-h2 pbh-h2 "));
    free(out);

    /* a program other than ssh: refused unless allowed */
    out = dry_run("[plan]\n" VD "[hosts]\nservers = h\n"
                  "remote = /usr/bin/sudo -u {host}\n" FIO,
                  0, &rc, msg, sizeof(msg));
    assert_int_equal(rc, PB_EUSAGE);
    assert_string_equal(msg, "remote: the template runs '/usr/bin/sudo', "
                             "not ssh: a plan names no other program unless "
                             "the run is given --allow-remote-command");
    free(out);
    out = dry_run("[plan]\n" VD "[hosts]\nservers = h\n"
                  "remote = /usr/bin/sudo -u {host}\n" FIO,
                  1, &rc, msg, sizeof(msg));
    assert_int_equal(rc, PB_OK);
    assert_non_null(strstr(out, "/usr/bin/sudo -u h ''\\''zpool'\\''' "));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hosts_parse),
        cmocka_unit_test(test_hosts_errors),
        cmocka_unit_test(test_hosts_dry_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
