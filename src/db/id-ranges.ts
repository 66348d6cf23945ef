// Row ids stay unique across shards (docs/scaling.md › Ids): each shard hands out ids from its own block
// of 2^32, so an account's rows can move to another shard keeping the ids integrators hold. Imported by
// scripts/setup.mjs too (Node strips the types), so it imports nothing.

/** Ids per block: 4.3 billion rows per table before a shard needs a fresh block. */
export const ID_BLOCK_SIZE = 2 ** 32;
/** Blocks 0 … 1023 are the shards' first blocks (shard n starts in block n); moves take blocks above. */
export const FIRST_MOVE_BLOCK = 1024;

/**
 * SQL that makes every AUTOINCREMENT table of a shard database hand out its next ids from `block`:
 * sequences below the block's start are raised to it, never lowered, so running it again (after every
 * migration, or twice) changes nothing. Tables with no row yet get their sequence row here too.
 */
export function idBlockStatements(block: number): string[] {
  const base = block * ID_BLOCK_SIZE;
  return [
    `INSERT INTO sqlite_sequence (name, seq) SELECT name, ${base} FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%' AND name NOT IN (SELECT name FROM sqlite_sequence)`,
    `UPDATE sqlite_sequence SET seq = ${base} WHERE seq < ${base}`,
  ];
}
