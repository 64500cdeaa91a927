#include "GatehouseSQLiteSupport.h"

// Declared here rather than through sqlite-nio's header, which is not part of its public
// product; the symbol is linked from sqlite-nio's bundled SQLite.
int sqlite_nio_sqlite3_db_config(void *db, int op, ...);

// SQLITE_DBCONFIG_ENABLE_QPSG in sqlite3.h.
#define GATEHOUSE_SQLITE_DBCONFIG_ENABLE_QPSG 1007

int gatehouse_sqlite_enable_stable_plans(void *db) {
    int enabled = 0;
    return sqlite_nio_sqlite3_db_config(db, GATEHOUSE_SQLITE_DBCONFIG_ENABLE_QPSG, 1, &enabled);
}
