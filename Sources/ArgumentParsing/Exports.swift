// JSONValue lives in its own target (the service writes JSON too); command-line code gets it
// with ArgumentParsing, as before.
@_exported import JSONValue
