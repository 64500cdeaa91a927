@_exported public import GatehouseCore
