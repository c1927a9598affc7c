export function featureFlag(name: string): boolean {
  return name.length > 0;
}
