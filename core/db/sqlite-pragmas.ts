/**
 * What every SQLite connection of the process sets: the ORM's and the dispatcher's own.
 * synchronous = normal is durable across process crashes in WAL mode (a power cut may lose the
 * last commits, never corrupt the file).
 */
export const SQLITE_CONNECTION_PRAGMAS = 'pragma synchronous = normal; pragma foreign_keys = on';
