#ifndef GATEHOUSE_SQLITE_SUPPORT_H
#define GATEHOUSE_SQLITE_SUPPORT_H

/// Turns on SQLite's query planner stability guarantee (SQLITE_DBCONFIG_ENABLE_QPSG) for the
/// connection `db` (a `sqlite3 *` of the SQLite library that sqlite-nio bundles).
///
/// Without it SQLite marks statements whose plan could depend on a bound value (joins, partial
/// indexes) to be compiled again whenever a new value is bound, so a cached statement is parsed
/// and planned on every use. `sqlite3_db_config` is variadic, which Swift cannot call; this
/// shim makes the one call Gatehouse needs. Returns SQLite's result code.
int gatehouse_sqlite_enable_stable_plans(void *db);

#endif
