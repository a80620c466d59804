/**
 * The answer to `workspace/configuration`: items for section `inputmend` get
 * the trust-filtered settings; any other item is left to the default handler.
 * Pure logic (the language client types are structural).
 */

export interface ConfigurationItem {
  section?: string;
  scopeUri?: string;
}

export async function answerConfiguration<E>(
  items: readonly ConfigurationItem[],
  section: string,
  ours: (scopeUri: string | undefined) => unknown,
  others: () => Promise<unknown[] | E>,
  isError: (value: unknown[] | E) => value is E,
): Promise<unknown[] | E> {
  const mine = items.map((item) => item.section === section);
  let rest: unknown[] = [];
  if (!mine.every(Boolean)) {
    const answer = await others();
    if (isError(answer)) return answer;
    rest = answer;
  }
  return items.map((item, index) => (mine[index] ? ours(item.scopeUri) : rest[index]));
}
