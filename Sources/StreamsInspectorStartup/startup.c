// Runs as the process starts (before `main`), in every executable that links StreamsInspector:
// when the environment variable STREAMS_INSPECTOR is `1`, installs the inspector's recorder, so
// that Streams records from the first subscription (Swift has no module initializers). Otherwise
// it does nothing, and no Swift code runs here.
#include <stdlib.h>
#include <string.h>

#include "StreamsInspectorStartup.h"

// Defined in StreamsInspector (Swift, `@_cdecl`): installs the recorder.
extern void streams_inspector_install_from_environment(void);

__attribute__((constructor)) static void streams_inspector_startup(void) {
    const char *value = getenv("STREAMS_INSPECTOR");
    if (value != NULL && strcmp(value, "1") == 0) {
        streams_inspector_install_from_environment();
    }
}
