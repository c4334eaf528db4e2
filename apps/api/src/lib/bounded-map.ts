/**
 * Sets `key` in a map used as a bounded cache: the entry becomes the newest (Map keeps insertion
 * order), and the oldest entries go while the map would hold more than `max`.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  while (map.size >= max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
  map.set(key, value);
}
