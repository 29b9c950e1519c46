#if Inspector
@_spi(StreamsInspectorSupport) import Streams
// The inspector's values encode and decode by hand, all with one key type: synthesized `Codable`
// gives each of the five types its own `CodingKeys` enum, with its own string switch, hashing,
// descriptions and metadata, and its own specialization of the keyed containers (about 20 KB of
// object text; see the Build cost section of [Performance](/documentation/streams/performance)). The JSON is the same: the same
// keys, and `nil` properties left out.

/// A key of the inspector's JSON, written as a string literal.
struct InspectorKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringLiteral name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension InspectorSnapshot {
    /// Encodes the snapshot as `{"chains": […]}`.
    public func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: InspectorKey.self)
        try keyed.encode(chains, forKey: "chains")
    }

    /// Decodes a snapshot encoded by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: InspectorKey.self)
        chains = try keyed.decode([Chain].self, forKey: "chains")
    }
}

extension InspectorSnapshot.Chain {
    /// Encodes the chain with its properties' names as keys, leaving out a `nil` name.
    public func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: InspectorKey.self)
        try keyed.encode(id, forKey: "id")
        try keyed.encodeIfPresent(name, forKey: "name")
        try keyed.encode(operators, forKey: "operators")
        try keyed.encode(isLive, forKey: "isLive")
        try keyed.encode(subscribedAt, forKey: "subscribedAt")
        try keyed.encode(thread, forKey: "thread")
        try keyed.encode(callStack, forKey: "callStack")
        try keyed.encode(callSites, forKey: "callSites")
        try keyed.encode(recordedEvents, forKey: "recordedEvents")
        try keyed.encode(droppedEvents, forKey: "droppedEvents")
    }

    /// Decodes a chain encoded by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: InspectorKey.self)
        id = try keyed.decode(Int.self, forKey: "id")
        name = try keyed.decodeIfPresent(String.self, forKey: "name")
        operators = try keyed.decode([InspectorSnapshot.Operator].self, forKey: "operators")
        isLive = try keyed.decode(Bool.self, forKey: "isLive")
        subscribedAt = try keyed.decode(Double.self, forKey: "subscribedAt")
        thread = try keyed.decode(String.self, forKey: "thread")
        callStack = try keyed.decode([String].self, forKey: "callStack")
        callSites = try keyed.decode([InspectorSnapshot.CallSite].self, forKey: "callSites")
        recordedEvents = try keyed.decode(Int.self, forKey: "recordedEvents")
        droppedEvents = try keyed.decode(Int.self, forKey: "droppedEvents")
    }
}

extension InspectorSnapshot.CallSite {
    /// Encodes the call site with its properties' names as keys, leaving out the `nil` ones.
    public func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: InspectorKey.self)
        try keyed.encodeIfPresent(function, forKey: "function")
        try keyed.encodeIfPresent(file, forKey: "file")
        try keyed.encodeIfPresent(line, forKey: "line")
        try keyed.encodeIfPresent(image, forKey: "image")
        try keyed.encodeIfPresent(address, forKey: "address")
        try keyed.encodeIfPresent(missing, forKey: "missing")
    }

    /// Decodes a call site encoded by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: InspectorKey.self)
        self.init(
            function: try keyed.decodeIfPresent(String.self, forKey: "function"),
            file: try keyed.decodeIfPresent(String.self, forKey: "file"),
            line: try keyed.decodeIfPresent(Int.self, forKey: "line"),
            image: try keyed.decodeIfPresent(String.self, forKey: "image"),
            address: try keyed.decodeIfPresent(String.self, forKey: "address"),
            missing: try keyed.decodeIfPresent(String.self, forKey: "missing"))
    }
}

extension InspectorSnapshot.Operator {
    /// Encodes the operator with its properties' names as keys, leaving out the `nil` ones.
    public func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: InspectorKey.self)
        try keyed.encode(id, forKey: "id")
        try keyed.encode(name, forKey: "name")
        try keyed.encodeIfPresent(label, forKey: "label")
        try keyed.encodeIfPresent(parent, forKey: "parent")
        try keyed.encode(liveSubscriptions, forKey: "liveSubscriptions")
        try keyed.encode(totalSubscriptions, forKey: "totalSubscriptions")
    }

    /// Decodes an operator encoded by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: InspectorKey.self)
        id = try keyed.decode(Int.self, forKey: "id")
        name = try keyed.decode(String.self, forKey: "name")
        label = try keyed.decodeIfPresent(String.self, forKey: "label")
        parent = try keyed.decodeIfPresent(Int.self, forKey: "parent")
        liveSubscriptions = try keyed.decode(Int.self, forKey: "liveSubscriptions")
        totalSubscriptions = try keyed.decode(Int.self, forKey: "totalSubscriptions")
    }
}

extension InspectorEvent {
    /// Encodes the event with its properties' names as keys, leaving out the `nil` ones.
    public func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: InspectorKey.self)
        try keyed.encode(chain, forKey: "chain")
        try keyed.encode(operatorID, forKey: "operatorID")
        try keyed.encode(operatorName, forKey: "operatorName")
        try keyed.encodeIfPresent(label, forKey: "label")
        try keyed.encode(kind, forKey: "kind")
        try keyed.encode(time, forKey: "time")
        try keyed.encode(thread, forKey: "thread")
        try keyed.encodeIfPresent(value, forKey: "value")
    }

    /// Decodes an event encoded by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: InspectorKey.self)
        chain = try keyed.decode(Int.self, forKey: "chain")
        operatorID = try keyed.decode(Int.self, forKey: "operatorID")
        operatorName = try keyed.decode(String.self, forKey: "operatorName")
        label = try keyed.decodeIfPresent(String.self, forKey: "label")
        kind = try keyed.decode(Kind.self, forKey: "kind")
        time = try keyed.decode(Double.self, forKey: "time")
        thread = try keyed.decode(String.self, forKey: "thread")
        value = try keyed.decodeIfPresent(String.self, forKey: "value")
    }
}
#endif
