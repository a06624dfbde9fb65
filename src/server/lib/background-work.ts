/**
 * Work nobody waits for but the app, which waits for every item of `background` before it closes (its database
 * first of all); dropped from the set once settled. `work` must not reject: it catches and logs its own failures.
 */
export function keepUntilSettled(background: Set<Promise<unknown>> | undefined, work: Promise<unknown>) {
  background?.add(work);
  void work.finally(() => background?.delete(work));
}
