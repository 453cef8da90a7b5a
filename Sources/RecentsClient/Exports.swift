// The `RecentsClient` product is the transport-agnostic client plus its URLSession transport:
// re-exported, so `import RecentsClient` gives apps the whole library, as before the split.
@_exported import RecentsClientCore
