// Column defaults shared by every table.
import { sql } from 'drizzle-orm';

/** ISO 8601 with milliseconds, UTC — sorts lexically in time order. */
export const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
