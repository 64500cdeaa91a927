@_exported public import Gatehouse
