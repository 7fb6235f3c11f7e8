/**
 * The tiles left to draw, by id: a Map (same order, same API) that also keeps the counts in an
 * array in that order and their total, so that drawing a tile at random is one pass over plain
 * numbers instead of a walk through the Map's entries on every turn.
 */
export class TileSupply extends Map<string, number> {
  /** Ids in the Map's order. */
  private readonly order: string[] = [];
  /** counts[i] is the count of order[i]. */
  private readonly counts: number[] = [];
  private readonly slots = new Map<string, number>();
  /** Sum of the positive counts. */
  private sum = 0;
  /** Counts every change, so that a figure worked out from the supply can be kept until the next one. */
  version = 0;

  override set(id: string, n: number): this {
    super.set(id, n);
    this.version++;
    const slot = this.slots.get(id);
    if (slot === undefined) {
      this.slots.set(id, this.order.length);
      this.order.push(id);
      this.counts.push(n);
      if (n > 0) this.sum += n;
    } else {
      const was = this.counts[slot]!;
      this.counts[slot] = n;
      this.sum += Math.max(n, 0) - Math.max(was, 0);
    }
    return this;
  }

  override delete(id: string): boolean {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    super.delete(id);
    this.version++;
    this.sum -= Math.max(this.counts[slot]!, 0);
    this.order.splice(slot, 1);
    this.counts.splice(slot, 1);
    this.slots.delete(id);
    for (let i = slot; i < this.order.length; i++) this.slots.set(this.order[i]!, i);
    return true;
  }

  override clear(): void {
    super.clear();
    this.version++;
    this.order.length = 0;
    this.counts.length = 0;
    this.slots.clear();
    this.sum = 0;
  }

  /** Tiles left in all (positive counts only). */
  get total(): number {
    return this.sum;
  }

  /** The count at position i of the Map's order (0 ≤ i < size). */
  countAt(i: number): number {
    return this.counts[i]!;
  }

  /** The id at position i of the Map's order. */
  idAt(i: number): string {
    return this.order[i]!;
  }
}
