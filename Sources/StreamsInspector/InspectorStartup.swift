#if Inspector
@_spi(StreamsInspectorSupport) import Streams
#endif

/// Installs the inspector's recorder; called as the process starts by StreamsInspectorStartup's C
/// constructor when `STREAMS_INSPECTOR=1` (and never otherwise). Defined whether or not the
/// `Inspector` trait is on, so that the constructor always links; without the trait it does
/// nothing.
@_cdecl("streams_inspector_install_from_environment")
func streamsInspectorInstallFromEnvironment() {
    #if Inspector
    InspectorHook.install(InspectorRegistry.shared)
    #endif
}
