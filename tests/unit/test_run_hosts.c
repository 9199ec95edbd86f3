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
#include <unistd.h>

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
    p = parse_ok("[plan]\n" VD "[hosts]\nservers = a:1, a:2\n"
                 "remote = ssh {host}\n" FIO);
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
        {"[plan]\n" VD "[hosts]\nservers = h\nremote = local\n    {host}\n",
         6, "remote: 'local' takes nothing after it"},
        {"[plan]\n" VD "[hosts]\nservers = h\nremote = ssh -p 22\n"
         "    -o BatchMode=yes\n" FIO, 5,
         "remote: the template must name {host} (like: ssh -o "
         "BatchMode=yes {host})"},
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
         "cpus_allowed = ${CPUS}\n", 10,
         "[fio] cpus_allowed: '$' is not allowed with [hosts] (job files "
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
    snprintf(msg, n, "%.*s", (int)n - 1, err.msg);
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
                             "not ssh: a plan names no other program (ssh "
                             "is found on PATH, or give --ssh PROGRAM) "
                             "unless the run is given --allow-remote-command");
    free(out);
    out = dry_run("[plan]\n" VD "[hosts]\nservers = h\n"
                  "remote = /usr/bin/sudo -u {host}\n" FIO,
                  1, &rc, msg, sizeof(msg));
    assert_int_equal(rc, PB_OK);
    assert_non_null(strstr(out, "/usr/bin/sudo -u h ''\\''zpool'\\''' "));
    free(out);
}

/* Issue 40 item 10: remote = local makes every pool here, so it takes
 * only servers on this machine: loopback addresses, localhost, this
 * machine's name, sock: servers. */
static void test_hosts_local(void **state)
{
    (void)state;
#define NOT_HERE(entry)                                                    \
    "servers: '" entry "' is not this machine, but remote = local makes " \
    "its pool here (with local: loopback addresses, localhost, this "     \
    "machine's name '%s' or sock:PATH; a server elsewhere needs a "      \
    "remote template like: ssh -o BatchMode=yes {host})"
    char me[256] = "";
    assert_int_equal(gethostname(me, sizeof(me) - 1), 0);
    static const struct {
        const char *text, *fmt;
        long line;
    } bad[] = {
        {"[plan]\n" VD "[hosts]\nservers = nas1.example.org\n"
         "remote = local\n" FIO, NOT_HERE("nas1.example.org"), 4},
        {"[plan]\n" VD "[hosts]\nservers = localhost:1,\n"
         "  10.0.0.7:9000\nremote = local\n" FIO, NOT_HERE("10.0.0.7:9000"),
         5},
        {"[plan]\n" VD "[hosts]\nservers = [fd00::7]:8765\n"
         "remote = local\n" FIO, NOT_HERE("[fd00::7]:8765"), 4},
        {"[plan]\n" VD "[hosts]\nservers = 128.0.0.1\nremote = local\n" FIO,
         NOT_HERE("128.0.0.1"), 4},
        {"[plan]\n" VD "[hosts]\nservers = localhost.evil.org\n"
         "remote = local\n" FIO, NOT_HERE("localhost.evil.org"), 4},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char want[600];
        snprintf(want, sizeof(want), bad[i].fmt, me);
        struct rh_bad one = {bad[i].text, bad[i].line, want};
        rh_refused(&one, 1);
    }
    /* loopback in its forms, this machine's name, a socket */
    char *text = pb_xasprintf(
        "[plan]\n" VD "[hosts]\nservers = localhost:1, LOCALHOST:2,\n"
        "  127.0.0.1:3, 127.1.2.3:4, [::1]:5, [::ffff:127.0.0.1]:6,\n"
        "  %s:7, sock:/run/x.sock\nremote = local\n" FIO, me);
    struct pb_run_plan *p = parse_ok(text);
    assert_int_equal(p->hosts.n, 8);
    for (size_t i = 0; i < p->hosts.n; i++)
        assert_true(pb_run_host_is_local(&p->hosts.h[i]));
    pb_run_plan_free(p);
    free(text);
    /* with a remote template, any host */
    p = parse_ok("[plan]\n" VD "[hosts]\nservers = nas1, 10.0.0.7\n"
                 "remote = ssh {host}\n" FIO);
    assert_false(pb_run_host_is_local(&p->hosts.h[0]));
    pb_run_plan_free(p);
#undef NOT_HERE
}

/* Issue 40 item 1: the template runs exactly ssh (from PATH, or the
 * --ssh PROGRAM of the command line) with allow-listed options and one
 * destination; ProxyCommand, LocalCommand, -F (Match exec),
 * KnownHostsCommand, bundled options, a path named ssh, a remote command:
 * all refused before anything runs, in a dry run too, unless
 * --allow-remote-command. */
static void test_hosts_template(void **state)
{
    (void)state;
#define OPT(o)                                                             \
    "remote: ssh option '" o "' is not allowed in a plan (the allowed "   \
    "ones: [hosts] in poolbench-plan(5); --allow-remote-command runs the " \
    "template as written)"
#define DEST                                                               \
    "remote: after ssh and its options the template ends with the "       \
    "destination, {host} or USER@{host} (a remote command is the run's "  \
    "own; --allow-remote-command runs the template as written)"
#define NOT_SSH(w)                                                         \
    "remote: the template runs '" w "', not ssh: a plan names no other "  \
    "program (ssh is found on PATH, or give --ssh PROGRAM) unless the "   \
    "run is given --allow-remote-command"
    static const struct {
        const char *remote, *msg;
    } bad[] = {
        {"ssh -oProxyCommand={touch,/x} -oBatchMode=yes {host}",
         OPT("-oProxyCommand={touch,/x}")},
        {"ssh -o ProxyCommand=/bin/sh {host}",
         OPT("-o ProxyCommand=/bin/sh")},
        {"ssh -o proxycommand=x {host}", OPT("-o proxycommand=x")},
        {"ssh -oLocalCommand=id -oPermitLocalCommand=yes {host}",
         OPT("-oLocalCommand=id")},
        {"ssh -o PermitLocalCommand=yes {host}",
         OPT("-o PermitLocalCommand=yes")},
        {"ssh -F /tmp/cfg {host}", OPT("-F")},
        {"ssh -o KnownHostsCommand=/x {host}",
         OPT("-o KnownHostsCommand=/x")},
        {"ssh -qoProxyCommand=x {host}", OPT("-qoProxyCommand=x")},
        {"ssh -o UserKnownHostsFile=/etc/sudoers.d/x {host}",
         OPT("-o UserKnownHostsFile=/etc/sudoers.d/x")},
        {"ssh -o UserKnownHostsFile=~/.ssh/../../etc/x {host}",
         OPT("-o UserKnownHostsFile=~/.ssh/../../etc/x")},
        {"ssh -i /root/%d/key {host}", OPT("-i /root/%d/key")},
        {"ssh -p 0 {host}", OPT("-p 0")},
        {"ssh -l -oProxyCommand=x {host}", OPT("-l -oProxyCommand=x")},
        {"ssh -E /etc/x {host}", OPT("-E")},
        {"ssh -o {host}", OPT("-o {host}")},
        {"ssh {host} sudo", DEST},
        {"ssh {host} -oProxyCommand=x", DEST},
        {"ssh -p 22 {host}x", DEST},
        {"ssh -o BatchMode=yes x@y@{host}", DEST},
        {"/some/dir/ssh {host}", NOT_SSH("/some/dir/ssh")},
        {"/usr/bin/ssh {host}", NOT_SSH("/usr/bin/ssh")},
    };
    int rc;
    char msg[512];
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char *text = pb_xasprintf("[plan]\n" VD "[hosts]\nservers = h\n"
                                  "remote = %s\n" FIO, bad[i].remote);
        char *out = dry_run(text, 0, &rc, msg, sizeof(msg));
        if (rc != PB_EUSAGE || strcmp(msg, bad[i].msg))
            print_error("case %zu (%s): rc %d: %s\n", i, bad[i].remote, rc,
                        msg);
        assert_int_equal(rc, PB_EUSAGE);
        assert_string_equal(msg, bad[i].msg);
        assert_string_equal(out, ""); /* nothing listed, nothing run */
        free(out);
        /* the person at the keyboard may run it as written */
        out = dry_run(text, 1, &rc, msg, sizeof(msg));
        assert_int_equal(rc, PB_OK);
        assert_non_null(strstr(out, " (run as written: "
                                    "--allow-remote-command)\n"));
        free(out);
        free(text);
    }
    /* the allow-listed forms */
    char *out = dry_run("[plan]\n" VD "[hosts]\nservers = h\nremote = ssh "
                        "-4 -q -p 2222 -l pb -i ~/.ssh/id_pb -oBatchMode=yes "
                        "-o ConnectTimeout=5 -o StrictHostKeyChecking=no "
                        "-o UserKnownHostsFile=/dev/null root@{host}\n" FIO,
                        0, &rc, msg, sizeof(msg));
    if (rc)
        print_error("%s\n", msg);
    assert_int_equal(rc, PB_OK);
    assert_non_null(strstr(out, "\nssh -4 -q -p 2222 -l pb -i '~/.ssh/id_pb' "
                                "-oBatchMode=yes -o ConnectTimeout=5 "));
    free(out);
    /* a long template continues on indented lines: the same words (an
     * ssh with a port, a key in a cache folder and four options is longer
     * than a plan line may be) */
    out = dry_run("[plan]\n" VD "[hosts]\nservers = h\nremote = ssh -p 2222 "
                  "-i /var/cache/pb/zfs-2.3.2-2~bpo12+2/id_ed25519\n"
                  "    -o BatchMode=yes -o StrictHostKeyChecking=no\n"
                  "    -o UserKnownHostsFile=/dev/null root@{host}\n" FIO,
                  0, &rc, msg, sizeof(msg));
    if (rc)
        print_error("%s\n", msg);
    assert_int_equal(rc, PB_OK);
    assert_non_null(strstr(out, "\nssh -p 2222 -i "
                                "'/var/cache/pb/zfs-2.3.2-2~bpo12+2/"
                                "id_ed25519' -o BatchMode=yes -o "
                                "StrictHostKeyChecking=no -o "
                                "UserKnownHostsFile=/dev/null "));
    free(out);
    /* ... and {host} may come on the continued line only */
    out = dry_run("[plan]\n" VD "[hosts]\nservers = h\nremote = ssh\n"
                  "    {host}\n" FIO, 0, &rc, msg, sizeof(msg));
    assert_int_equal(rc, PB_OK);
    free(out);
#undef OPT
#undef DEST
#undef NOT_SSH
}

/* --ssh PROGRAM: the template's ssh is the command line's, listed as
 * such; it must be absolute. */
static void test_hosts_ssh_option(void **state)
{
    (void)state;
    struct pb_run_opts o = {0};
    o.dir = "/tmp/pb-unit-hosts-out";
    o.run_id = "unit-h";
    o.impl = PB_RUN_IMPL_ZFS_FUSE;
    o.caps_dir = CAPS_DIR "/zfs-fuse";
    o.ssh = "/opt/ssh/bin/ssh";
    struct pb_err err = {0};
    int rc;
    char *out = rh_dry_run("[plan]\n" VD "[hosts]\nservers = nas1\n"
                           "remote = ssh -o BatchMode=yes {host}\n" FIO,
                           o, &rc, &err);
    assert_int_equal(rc, PB_OK);
    assert_non_null(strstr(out, "# remote: 'ssh' is /opt/ssh/bin/ssh "
                                "(--ssh)\n"));
    assert_non_null(strstr(out, "\n/opt/ssh/bin/ssh -o BatchMode=yes nas1 "
                                "''\\''zpool'\\''' ''\\''create'\\''' "));
    assert_null(strstr(out, "\nssh "));
    free(out);
    o.ssh = "bin/ssh";
    pb_err_clear(&err);
    out = rh_dry_run("[plan]\n" VD "[hosts]\nservers = nas1\n"
                     "remote = ssh {host}\n" FIO, o, &rc, &err);
    assert_int_equal(rc, PB_EUSAGE);
    assert_string_equal(err.msg, "--ssh wants an absolute path, got "
                                 "'bin/ssh'");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hosts_parse),
        cmocka_unit_test(test_hosts_errors),
        cmocka_unit_test(test_hosts_dry_run),
        cmocka_unit_test(test_hosts_local),
        cmocka_unit_test(test_hosts_template),
        cmocka_unit_test(test_hosts_ssh_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
