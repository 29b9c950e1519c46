// StreamsInspector's start-up: with STREAMS_INSPECTOR=1 in the environment, the stream inspector
// records from the process's first subscription (see startup.c). Nothing to call: the module has
// no API of its own.
#ifndef STREAMS_INSPECTOR_STARTUP_H
#define STREAMS_INSPECTOR_STARTUP_H
#endif
