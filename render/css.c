/* The report's style sheet, one for every page poolbench writes: the
 * report's pages (report.c) and the compare page (compare_html.c, which
 * adds the rules of its own after it). */
#include "render/rp_out.h"

const char rp_css[] =
    ":root{--fg:#1d1f23;--muted:#5d6470;--line:#e3e5e8;--bg:#fff;"
    "--soft:#f6f7f9;--accent:#2f5d8a}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--soft);color:var(--fg);font:15px/1.5 "
    "system-ui,-apple-system,'Segoe UI','DejaVu Sans',Roboto,sans-serif}\n"
    "main{max-width:1360px;margin:0 auto;padding:28px 28px 60px;"
    "background:var(--bg);min-height:100vh}\n"
    "@media (max-width:600px){main{padding:16px 12px 40px}}\n"
    "h1{font-size:28px;line-height:1.2;margin:0 0 6px}\n"
    "h2{font-size:22px;margin:44px 0 10px;padding-top:12px;border-top:2px "
    "solid var(--line)}\n"
    "h3{font-size:17px;margin:30px 0 6px;overflow-wrap:anywhere}\n"
    "h4{font-size:15px;margin:20px 0 6px;color:var(--muted)}\n"
    "p{margin:6px 0 12px}\n"
    ".meta,.params,.note,.lead{color:var(--muted)}\n"
    ".warnings{border-left:4px solid #b26a00;padding-left:12px}\n"
    ".warn{color:#7a4a00;margin:4px 0}\n"
    ".params{font-size:13.5px;overflow-wrap:anywhere}\n"
    ".note{font-size:13.5px}\n"
    "a{color:var(--accent)}\n"
    ".stats{display:flex;flex-wrap:wrap;gap:12px;margin:18px 0}\n"
    ".stats div{flex:1 1 120px;border:1px solid var(--line);border-radius:8px;"
    "padding:10px 14px;background:var(--soft)}\n"
    ".stats b{display:block;font-size:24px}\n"
    ".stats span{color:var(--muted);font-size:13px}\n"
    "nav ol{columns:2 220px;margin:8px 0 0;padding-left:20px}\n"
    "nav.toc{margin:10px 0 18px;font-size:14px}\n"
    "nav.toc>ul{columns:2 320px;margin:6px 0 0;padding-left:18px}\n"
    "nav.toc li.tg{break-inside:avoid}\n"
    "nav.toc ul ul{padding-left:16px;margin:2px 0 6px}\n"
    "input.flt{display:block;width:100%;max-width:360px;margin:6px 0;"
    "padding:5px 8px;font:inherit;border:1px solid var(--line);"
    "border-radius:6px}\n"
    "figure{margin:14px 0 8px;overflow-x:auto}\n"
    "figure.wide img{max-width:none}\n"
    "figure img{display:block;max-width:100%;height:auto;border:1px solid "
    "var(--line);border-radius:6px;background:#fff}\n"
    "figcaption.csv{font-size:13px;margin:3px 0 0}\n"
    /* narrower than a chart: its natural size in a scrolling figure, so
     * its text (9.5 px and up) is never scaled below 9 px */
    "@media (max-width:899px){figure img,figure svg{max-width:none}}\n"
    /* wide tables scroll inside their box, the scrollbar in view (at most
     * 80% of the window tall), the first column and the header stay */
    ".tw{overflow:auto;max-height:80vh;margin:6px 0 14px;"
    "scrollbar-width:auto;scrollbar-color:#9aa3ad #eef0f2;"
    "background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)),"
    "linear-gradient(to right,rgba(255,255,255,0),#fff 70%) 100% 0,"
    "radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.18),"
    "rgba(0,0,0,0)) 100% 0;background-repeat:no-repeat;"
    "background-size:40px 100%,40px 100%,14px 100%;"
    "background-attachment:local,local,scroll}\n"
    ".tw::-webkit-scrollbar{width:12px;height:12px;background:#eef0f2}\n"
    ".tw::-webkit-scrollbar-thumb{background:#9aa3ad;border-radius:6px;"
    "border:2px solid #eef0f2}\n"
    ".tw table.data tbody td:first-child,.tw table.data thead "
    "th:first-child{position:sticky;left:0;z-index:1;background:#fff;"
    "box-shadow:1px 0 0 var(--line)}\n"
    ".tw table.data thead th{position:sticky;top:0;z-index:2}\n"
    ".tw table.data thead th:first-child{z-index:3;background:var(--soft)}\n"
    ".tw table.data tr.grp th{position:static}\n"
    "table.data{border-collapse:collapse;font-size:13.5px;"
    "font-variant-numeric:tabular-nums}\n"
    "table.data caption{text-align:left;font-weight:600;padding:4px 0}\n"
    "table.data th,table.data td{padding:4px 10px;border-bottom:1px solid "
    "var(--line);text-align:left;vertical-align:top}\n"
    "table.data th{background:var(--soft);font-weight:600;"
    "white-space:nowrap}\n"
    "table.data tbody tr:hover td{background:#eef3f9}\n"
    "table.data tr.grp th{text-align:center;border-bottom:0}\n"
    ".r{text-align:right!important;white-space:nowrap}\n"
    ".c{text-align:center!important}\n"
    ".b{font-weight:600}.m{color:var(--muted)}.i{font-style:italic}\n"
    ".w{color:#b00020;font-weight:600}.g{color:#1b7a3a}\n"
    ".a{color:#9a5b00;font-weight:600}\n"
    ".mono{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;"
    "font-size:12.5px}\n"
    ".sw{display:inline-block;width:11px;height:11px;border-radius:2px;"
    "margin-right:7px;vertical-align:-1px}\n"
    ".cf{display:flex;align-items:baseline}.cf .sw{flex:none}\n"
    "details{margin:6px 0 14px}\n"
    "summary{cursor:pointer;color:var(--accent);font-size:14px}\n"
    "table.sortable th{cursor:pointer}\n"
    "table.sortable th:after{content:' \\2195';color:#aab}\n"
    "footer{margin-top:50px;color:var(--muted);font-size:13px}\n"
    "@media print{body{background:#fff}main{padding:0}nav{display:none}}\n";

/* Rules after rp_css (one string literal is at most 4,095 bytes in C99). */
const char rp_css_more[] =
    /* a kind of warning of many sources: its count, the list folded */
    "details.warn>summary{cursor:pointer}\n"
    "details.warn.serious>summary{font-weight:600}\n"
    "details.warn ul{margin:4px 0 8px;padding-left:20px;font-size:13.5px;"
    "overflow-wrap:anywhere}\n"
    /* touch targets: the links of the contents, the tests' lists and the
     * pagers at least 48 px tall on a phone, 24 px elsewhere */
    "nav a,.pager a{display:inline-block;min-height:24px;"
    "line-height:24px}\n"
    ".pager{flex-wrap:wrap}\n"
    "@media (max-width:899px){nav a,.pager a{min-height:48px;"
    "line-height:48px}nav ol{columns:1}}\n";

void rp_css_put(struct pb_buf *h)
{
    pb_buf_puts(h, rp_css);
    pb_buf_puts(h, rp_css_more);
}
