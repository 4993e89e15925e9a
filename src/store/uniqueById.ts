/** Two entries with the same id would give a tree duplicate ids, which VS Code rejects: keep the first. */
export function uniqueById<T extends { readonly id: string }>(items: readonly T[]): readonly T[] {
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(item.id) ? false : (seen.add(item.id), true)));
}
