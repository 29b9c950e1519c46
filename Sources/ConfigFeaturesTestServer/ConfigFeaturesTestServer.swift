/// A loopback server that speaks Firebase's Remote Config and Realtime Database REST protocols,
/// for tests: started and stopped by the tests themselves, with faults injected on demand.
public enum ConfigFeaturesTestServerModule {}
