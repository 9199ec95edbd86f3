/* A deliberate upward call, for the test layers.upward: this file poses
 * as part of model/ (its library links only pb_model and what is below)
 * and calls into ingest/, a layer above. Linking layers_probe must fail
 * with an undefined reference to pb_ingest_generic_label. Never built by
 * default. */
#include "ingest/ingest.h"
#include "model/db.h"

int pb_layers_probe(void);

int pb_layers_probe(void)
{
    return pb_ingest_generic_label("fio");
}
