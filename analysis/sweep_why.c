/* Sweeps: why the x axis and series asked for (--x, --series) draw
 * nothing from a metric's results, said in full with the values that
 * make it impossible, and which sweeps of them can be drawn. */
#include "analysis/sweeps.h"
#include "analysis/sweep_int.h"

#include <stdlib.h>
#include <string.h>

/* At most this many examples in one explanation. */
#define WHY_MAX 6

static const char *val(const struct sw_metric *m, size_t k, size_t row,
                       char *buf, size_t n)
{
    const struct cand *c = &m->cands[k];
    return rp_sw_text(c, c->vals[m->vi[row * m->stride + k]], buf, n);
}

static size_t family_of(const struct sw_metric *m)
{
    for (size_t j = 0; j < m->nreal; j++)
        if (m->cands[j].kind == RP_DIM_FAMILY)
            return j;
    return SIZE_MAX;
}

/* Does k take two values within one program? When not, and it varies,
 * it varies only between programs. */
static int within_program(const struct sw_metric *m, size_t k)
{
    size_t fam = family_of(m);
    if (fam == SIZE_MAX)
        return 1;
    size_t nf = m->cands[fam].nvals;
    size_t *first = pb_xcalloc(nf + 1, sizeof(size_t)); /* value + 1 */
    int within = 0;
    for (size_t i = 0; i < m->n && !within; i++) {
        size_t f = m->vi[i * m->stride + fam], v = m->vi[i * m->stride + k];
        if (!first[f])
            first[f] = v + 1;
        else
            within = first[f] != v + 1;
    }
    free(first);
    return within;
}

/* "rw varies only between programs (fio: randread; pts/aio-stress: ...)" */
static void between_programs(const struct sw_metric *m, size_t k,
                             struct pb_buf *b)
{
    pb_buf_printf(b,
                  "%s varies only between programs, and a sweep stays "
                  "within one (",
                  rp_sw_key(&m->cands[k]));
    size_t fam = family_of(m);
    unsigned char *seen = pb_xcalloc(m->cands[fam].nvals + 1, 1);
    size_t shown = 0;
    for (size_t i = 0; i < m->n; i++) {
        size_t f = m->vi[i * m->stride + fam];
        if (seen[f])
            continue;
        seen[f] = 1;
        if (shown++ == WHY_MAX) {
            pb_buf_puts(b, "; ...");
            break;
        }
        char buf[64];
        pb_buf_printf(b, "%s%s: %s", shown > 1 ? "; " : "",
                      m->cands[fam].vals[f], val(m, k, i, buf, sizeof(buf)));
    }
    free(seen);
    pb_buf_puts(b, ")");
}

/* "each layout was measured with one l2arc (stripe: no; raidz2: yes)" */
static void one_each(const struct sw_metric *m, size_t a, size_t b2,
                     struct pb_buf *b)
{
    const struct cand *ca = &m->cands[a], *cb = &m->cands[b2];
    pb_buf_printf(b, "each %s was measured with one %s (", rp_sw_key(ca),
                  rp_sw_key(cb));
    unsigned char *seen = pb_xcalloc(ca->nvals + 1, 1);
    size_t shown = 0;
    for (size_t i = 0; i < m->n; i++) {
        size_t v = m->vi[i * m->stride + a];
        if (seen[v] || !ca->vals[v])
            continue;
        seen[v] = 1;
        if (shown++ == WHY_MAX) {
            pb_buf_puts(b, "; ...");
            break;
        }
        char x1[64], x2[64];
        pb_buf_printf(b, "%s%s: %s", shown > 1 ? "; " : "",
                      val(m, a, i, x1, sizeof(x1)),
                      val(m, b2, i, x2, sizeof(x2)));
    }
    free(seen);
    pb_buf_puts(b, ")");
}

/* Values of s measured with one value of x only: "l2arc=yes was
 * measured only with layout=raidz2 (host_4.4_c)". Returns how many. */
static size_t lone_values(const struct sw_metric *m, size_t x, size_t s,
                          struct pb_buf *b)
{
    const struct cand *cx = &m->cands[x], *cs = &m->cands[s];
    size_t found = 0;
    for (size_t v = 0; v < cs->nvals && found < WHY_MAX; v++) {
        if (!cs->vals[v])
            continue;
        size_t xv = SIZE_MAX, row = 0;
        int many = 0;
        for (size_t i = 0; i < m->n && !many; i++) {
            const uint32_t *r = m->vi + i * m->stride;
            if (r[s] != v || !cx->vals[r[x]])
                continue;
            if (xv == SIZE_MAX) {
                xv = r[x];
                row = i;
            } else if (r[x] != xv) {
                many = 1;
            }
        }
        if (many || xv == SIZE_MAX)
            continue;
        char b1[64], b2[64];
        pb_buf_printf(b, "%s%s=%s was measured only with %s=%s (",
                      found ? "; " : "", rp_sw_key(cs),
                      val(m, s, row, b1, sizeof(b1)), rp_sw_key(cx),
                      val(m, x, row, b2, sizeof(b2)));
        /* the configurations behind it */
        unsigned char *seen = pb_xcalloc(m->d->nconfigs + 1, 1);
        size_t nl = 0;
        for (size_t i = 0; i < m->n; i++) {
            const uint32_t *r = m->vi + i * m->stride;
            size_t cf = m->d->cells[m->cells[i]].config;
            if (r[s] != v || !cx->vals[r[x]] || seen[cf])
                continue;
            seen[cf] = 1;
            if (nl++ == 3) {
                pb_buf_puts(b, ", ...");
                break;
            }
            pb_buf_printf(b, "%s%s", nl > 1 ? ", " : "",
                          m->d->configs[cf].label);
        }
        free(seen);
        pb_buf_puts(b, ")");
        found++;
    }
    return found;
}

/* The real dimensions but x and s (and what follows from them) that vary
 * among the cells: what keeps them in different panels. */
static void other_dims(const struct sw_metric *m, size_t x, size_t s,
                       struct pb_buf *b)
{
    size_t shown = 0;
    for (size_t k = 0; k < m->nreal; k++) {
        if (k == x || k == s || m->cands[k].kind == RP_DIM_FAMILY ||
            rp_sw_depends(m->dep, m->nreal, x, s, k))
            continue;
        pb_buf_printf(b, "%s%s", shown++ ? ", " : "", rp_sw_key(&m->cands[k]));
    }
    if (!shown)
        pb_buf_puts(b, "nothing else");
}

/* What can be drawn with x: the series that form a grid with it, and x
 * alone. */
static void alternatives(const struct sw_metric *m, size_t x, struct cov_ws *w,
                         struct pb_buf *b)
{
    struct pb_buf alt = PB_BUF_INIT;
    pb_buf_puts(&alt, "");
    size_t n = 0;
    for (size_t k = 0; k < m->ncand; k++) {
        const struct cand *c = &m->cands[k];
        if (k == x || c->kind == RP_DIM_FAMILY || c->kind == RP_DIM_OTHERS ||
            !rp_sw_coverage(m, x, k, w))
            continue;
        pb_buf_printf(&alt, "%s%s", n++ ? ", " : "", rp_sw_key(c));
    }
    int alone =
        rp_sw_coverage(m, x, SIZE_MAX, w) > 0 ||
        (m->cands[x].kind == RP_DIM_CONFIG && rp_sw_coverage_all(m, x, w) > 0);
    const char *name = rp_sw_key(&m->cands[x]);
    if (n)
        pb_buf_printf(b, "; %s can be swept with --series %s%s", name,
                      pb_buf_str(&alt), alone ? ", or alone" : "");
    else if (alone)
        pb_buf_printf(b, "; %s can be swept alone (--x %s)", name, name);
    else
        pb_buf_printf(b, "; no sweep can have %s as its x axis", name);
    pb_buf_release(&alt);
}

void rp_sw_explain(const struct sw_metric *m, size_t x, size_t s,
                   struct cov_ws *w, struct pb_buf *b)
{
    const struct cand *cx = x != SIZE_MAX ? &m->cands[x] : NULL;
    const struct cand *cs = s != SIZE_MAX ? &m->cands[s] : NULL;
    char mt[96];
    rp_metric_title(m->d->metrics[m->metric].name, mt, sizeof(mt));
    if (cx && cs)
        pb_buf_printf(b, "no sweep of %s by %s and %s: ", mt, rp_sw_key(cx),
                      rp_sw_key(cs));
    else if (cx)
        pb_buf_printf(b, "no sweep of %s by %s: ", mt, rp_sw_key(cx));
    else
        pb_buf_printf(b, "no sweep of %s with the series %s: ", mt,
                      rp_sw_key(cs));
    if (cx && cs && x == s) {
        pb_buf_puts(b, "--x and --series name the same dimension");
        return;
    }
    if (cx && !within_program(m, x)) {
        between_programs(m, x, b);
        return;
    }
    if (cs && !within_program(m, s)) {
        between_programs(m, s, b);
        return;
    }
    if (cx && cs) {
        if (x < m->nreal && s < m->nreal && m->dep[x * m->nreal + s])
            one_each(m, x, s, b);
        else if (x < m->nreal && s < m->nreal && m->dep[s * m->nreal + x])
            one_each(m, s, x, b);
        else if (!lone_values(m, x, s, b) && !lone_values(m, s, x, b)) {
            pb_buf_printf(b,
                          "the configurations that differ in %s and %s "
                          "differ in other dimensions too (",
                          rp_sw_key(cx), rp_sw_key(cs));
            other_dims(m, x, s, b);
            pb_buf_puts(b, ")");
        }
        pb_buf_printf(b,
                      ", and a sweep needs two values of %s, each "
                      "measured at two values of %s, with every other "
                      "dimension the same",
                      rp_sw_key(cx), rp_sw_key(cs));
        alternatives(m, x, w, b);
        return;
    }
    const struct cand *c = cx ? cx : cs;
    size_t k = cx ? x : s;
    if (c->nvals == 2 && !c->vals[1]) {
        /* one value, and results without it */
        char buf[64];
        pb_buf_printf(b, "every result that has %s has %s=%s", rp_sw_key(c),
                      rp_sw_key(c), rp_sw_text(c, c->vals[0], buf, sizeof(buf)));
        return;
    }
    pb_buf_printf(b,
                  "no two results differ in %s alone: those with other "
                  "values of %s differ in ",
                  rp_sw_key(c), rp_sw_key(c));
    other_dims(m, k, SIZE_MAX, b);
    pb_buf_puts(b, " too");
    if (cx)
        alternatives(m, x, w, b);
}
