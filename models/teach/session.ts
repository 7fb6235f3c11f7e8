/**
 * A teach session (issue 30): the cards of every still frame shown so far, one per tile on the table.
 */

/**
 * A card whose first reading has at least this confidence is "sure": "accept all sure cards" takes
 * it without the table looking at it. Chosen on the tuning art (first-edition scans), docs/teach.md.
 */
export const SURE_CONFIDENCE = 0.999;
