import type { DatabaseKind } from './orm.ts';

// Keep this module's imports light: the SQLite thread of the delivery store loads it too.

/** Column values as each database keeps them: MikroORM's SQLite platform stores dates as epoch milliseconds and JSON as text. */
export class RowCodec {
  readonly kind: DatabaseKind;

  constructor(kind: DatabaseKind) {
    this.kind = kind;
  }

  date(value: Date | number): Date | number {
    const ms = typeof value === 'number' ? value : value.getTime();
    return this.kind === 'sqlite' ? ms : new Date(ms);
  }

  readDate(value: unknown): Date {
    return new Date(this.readMs(value));
  }

  readOptionalDate(value: unknown): Date | null {
    return value === null || value === undefined ? null : this.readDate(value);
  }

  readMs(value: unknown): number {
    if (value instanceof Date) return value.getTime();
    if (typeof value === 'number') return value;
    return typeof value === 'string' && !/^\d+$/.test(value) ? Date.parse(value) : Number(value);
  }

  bool(value: boolean): boolean | number {
    return this.kind === 'sqlite' ? (value ? 1 : 0) : value;
  }

  readBool(value: unknown): boolean {
    return value === true || value === 1 || value === '1';
  }

  /** JSON text; PostgreSQL casts it into its jsonb column. */
  json(value: unknown): string {
    return JSON.stringify(value);
  }

  readJson<T>(value: unknown): T {
    return (typeof value === 'string' ? JSON.parse(value) : value) as T;
  }

  /** A JSON column as text: SQLite keeps the very text written; PostgreSQL's jsonb comes back parsed. */
  readJsonText(value: unknown): string {
    return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

const CODECS = { sqlite: new RowCodec('sqlite'), postgresql: new RowCodec('postgresql') } as const;

/** The codec of a database: one per kind, shared. */
export const rowCodec = (kind: DatabaseKind): RowCodec => CODECS[kind];
