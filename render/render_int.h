/* Private to render/: every private header of the module at once, for
 * the files that use most of them. A file that uses a few includes those:
 * rp_base.h (text, units, sorting), rp_data.h (the report's data),
 * rp_chart.h (charts), rp_table.h (tables), rp_out.h (output primitives),
 * rp_csv.h (chart data, results.csv), rp_files.h (the report folder),
 * rp_sections.h (sections and what they load), rp_pdf.h (the PDF).
 * Prefixes: rp_ (report model and text), rc_ (chart layout), rt_ (tables). */
#ifndef PB_RENDER_INT_H
#define PB_RENDER_INT_H

#include "render/rp_data.h"
#include "render/rp_chart.h"
#include "render/rp_table.h"
#include "render/rp_out.h"
#include "render/rp_files.h"
#include "render/rp_csv.h"
#include "render/rp_sections.h"
#include "render/rp_pdf.h"

#endif
