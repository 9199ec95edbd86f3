/* Private to render/: the report's data (analysis/data.h: the model, test
 * identity, best, ranking, history, hosts) and its sweeps
 * (analysis/sweeps.h), for the render/ files that draw them
 * (render_int.h has all). */
#ifndef PB_RP_DATA_H
#define PB_RP_DATA_H

#include "analysis/data.h"
#include "analysis/sweeps.h"
#include "render/rp_base.h"

#endif
