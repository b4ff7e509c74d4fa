/*
 * A deterministic SQL workload over the SQLite amalgamation: a program no one here wrote
 * (SQLite), driven by this small program of ours. It builds an in-memory database of orders,
 * customers and products from a fixed-seed generator, indexes it, and runs joins, aggregates,
 * LIKE scans, a recursive CTE, updates and deletes inside transactions, printing every result
 * row, so that two runs (acf and qemu-riscv64) can be compared byte for byte.
 *
 * usage: sqlbench [SCALE] [DBFILE]   (SCALE: thousands of orders, default 20;
 *                                     DBFILE: a file database instead of :memory:)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sqlite3.h"

static unsigned long long seed = 0x9e3779b97f4a7c15ULL;
static unsigned rnd(void) {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return (unsigned)(seed >> 11);
}

static unsigned long long checksum = 1469598103934665603ULL;
static void mix(const char *s) {
  for (; *s; s++) {
    checksum ^= (unsigned char)*s;
    checksum *= 1099511628211ULL;
  }
}

static int print_row(void *tag, int n, char **values, char **names) {
  (void)names;
  printf("%s:", (const char *)tag);
  for (int i = 0; i < n; i++) {
    const char *v = values[i] ? values[i] : "NULL";
    printf(" %s", v);
    mix(v);
  }
  printf("\n");
  return 0;
}

static void exec(sqlite3 *db, const char *tag, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, print_row, (void *)tag, &err) != SQLITE_OK) {
    fprintf(stderr, "sqlbench: %s: %s\n", tag, err);
    sqlite3_free(err);
    exit(1);
  }
}

static const char *WORDS[] = {"red", "green", "blue", "large", "small", "steel", "wooden",
                              "quick", "silent", "bright", "north", "south", "east", "west"};

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 20;
  const char *file = argc > 2 ? argv[2] : ":memory:";
  if (scale <= 0) {
    fprintf(stderr, "sqlbench: SCALE must be positive\n");
    return 2;
  }
  sqlite3 *db;
  if (sqlite3_open(file, &db) != SQLITE_OK) {
    fprintf(stderr, "sqlbench: cannot open %s: %s\n", file, sqlite3_errmsg(db));
    return 1;
  }
  printf("sqlite %s\n", sqlite3_libversion());
  exec(db, "schema",
       "CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT, region TEXT);"
       "CREATE TABLE product(id INTEGER PRIMARY KEY, label TEXT, price REAL);"
       "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER, product INTEGER,"
       " qty INTEGER, day INTEGER);");
  int customers = 50 * scale, products = 20 * scale, orders = 1000 * scale;
  sqlite3_stmt *st;
  exec(db, "begin", "BEGIN");
  sqlite3_prepare_v2(db, "INSERT INTO customer VALUES(?,?,?)", -1, &st, NULL);
  for (int i = 1; i <= customers; i++) {
    char name[64];
    snprintf(name, sizeof name, "%s %s %d", WORDS[rnd() % 14], WORDS[rnd() % 14], i);
    sqlite3_bind_int(st, 1, i);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, WORDS[10 + rnd() % 4], -1, SQLITE_STATIC);
    sqlite3_step(st);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  sqlite3_prepare_v2(db, "INSERT INTO product VALUES(?,?,?)", -1, &st, NULL);
  for (int i = 1; i <= products; i++) {
    char label[64];
    snprintf(label, sizeof label, "%s-%s-%04d", WORDS[rnd() % 14], WORDS[rnd() % 14], i);
    sqlite3_bind_int(st, 1, i);
    sqlite3_bind_text(st, 2, label, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 3, (rnd() % 100000) / 100.0);
    sqlite3_step(st);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  sqlite3_prepare_v2(db, "INSERT INTO orders VALUES(?,?,?,?,?)", -1, &st, NULL);
  for (int i = 1; i <= orders; i++) {
    sqlite3_bind_int(st, 1, i);
    sqlite3_bind_int(st, 2, 1 + rnd() % customers);
    sqlite3_bind_int(st, 3, 1 + rnd() % products);
    sqlite3_bind_int(st, 4, 1 + rnd() % 9);
    sqlite3_bind_int(st, 5, rnd() % 365);
    sqlite3_step(st);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  exec(db, "commit", "COMMIT");
  exec(db, "index",
       "CREATE INDEX orders_customer ON orders(customer);"
       "CREATE INDEX orders_day ON orders(day, product);");
  exec(db, "count", "SELECT count(*), sum(qty), min(day), max(day) FROM orders");
  exec(db, "region",
       "SELECT c.region, count(*), sum(o.qty * p.price) FROM orders o"
       " JOIN customer c ON c.id = o.customer JOIN product p ON p.id = o.product"
       " GROUP BY c.region ORDER BY c.region");
  exec(db, "top",
       "SELECT c.name, round(sum(o.qty * p.price), 2) AS total FROM orders o"
       " JOIN customer c ON c.id = o.customer JOIN product p ON p.id = o.product"
       " GROUP BY c.id ORDER BY total DESC, c.id LIMIT 10");
  exec(db, "like",
       "SELECT count(*) FROM product WHERE label LIKE '%steel%' OR label GLOB '*quick-*'");
  exec(db, "month",
       "SELECT day / 30 AS month, count(*), avg(qty) FROM orders WHERE day BETWEEN 60 AND 240"
       " GROUP BY month ORDER BY month");
  exec(db, "cte",
       "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 500)"
       " SELECT count(*), sum(x * x) % 1000003 FROM n WHERE x % 7 = 3");
  exec(db, "update", "BEGIN; UPDATE orders SET qty = qty + 1 WHERE day % 11 = 0;"
                     " DELETE FROM orders WHERE qty > 9; COMMIT;");
  exec(db, "after", "SELECT count(*), sum(qty) FROM orders");
  exec(db, "distinct",
       "SELECT count(DISTINCT customer), count(DISTINCT product) FROM orders WHERE day < 100");
  exec(db, "window",
       "SELECT region, name, rank FROM (SELECT c.region, c.name, rank() OVER"
       " (PARTITION BY c.region ORDER BY count(*) DESC, c.id) AS rank FROM orders o"
       " JOIN customer c ON c.id = o.customer GROUP BY c.id) WHERE rank <= 2 ORDER BY region, rank");
  sqlite3_close(db);
  printf("checksum %016llx\n", checksum);
  return 0;
}
