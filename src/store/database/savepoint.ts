import type { Database, Queryable, Row } from './db.js';

/**
 * A Database that runs inside the transaction `tx` someone else opened: each of its transactions
 * is a savepoint of `tx`, so a use case written for its own transaction can run, unchanged, as one
 * step of a larger one. A throw rolls back to the savepoint (the use case's effects, nothing of the
 * enclosing transaction) and is re-thrown; the enclosing transaction decides whether to commit.
 * Its statements run on `tx` one after the other: nothing here may run two transactions at once.
 */
export function joinTransaction(tx: Queryable, kind: Database['kind']): Database {
  let savepoints = 0;
  return {
    kind,
    query: <T = Row>(sql: string, params?: readonly unknown[]) => tx.query<T>(sql, params),
    exec: (sql: string) => tx.exec(sql),
    afterCommit: (effect) => tx.afterCommit(effect),
    async transaction<T>(fn: (inner: Queryable) => Promise<T>): Promise<T> {
      const name = `joined_${++savepoints}`;
      await tx.query(`SAVEPOINT ${name}`);
      // A savepoint rolled back takes its effects with it; released, they wait for the owner's commit.
      const effects: Array<() => void> = [];
      let result: T;
      try {
        result = await fn({
          query: <R>(sql: string, params?: readonly unknown[]) => tx.query<R>(sql, params),
          exec: (sql: string) => tx.exec(sql),
          afterCommit: (effect) => void effects.push(effect),
        });
      } catch (error) {
        await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
      await tx.query(`RELEASE SAVEPOINT ${name}`);
      for (const effect of effects) tx.afterCommit(effect);
      return result;
    },
    close: () => Promise.reject(new Error('a joined transaction is closed by its owner')),
  };
}
