/* A deliberate upward include, for the test layers.includes_probe: this
 * file poses as part of render/ and includes model/db.h, which render/
 * must not (it is handed analysis/'s structs, never the database).
 * tests/layers/includes.sh must name it. Never built. */
#include "model/db.h"
#include "render/render.h"
