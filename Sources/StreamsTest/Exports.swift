@_exported import Streams
@_exported import StreamsBlocking
