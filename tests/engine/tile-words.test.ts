import { describe, expect, it } from 'vitest';
import { TileCatalog } from '../../engine/catalog/registry.js';
import { tileWords, tileWordsAll } from '../../engine/catalog/tile-words.js';

const catalog = TileCatalog.standard();
const words = tileWordsAll(catalog.all());

describe('tile words', () => {
  it('name every tile without an id, a compass direction or a catalog aside', () => {
    for (const t of catalog.all()) {
      const w = words.get(t.id)!;
      expect(w, t.id).toMatch(/^[A-Z]/);
      expect(w, t.id).not.toMatch(/\b(BASE|IC|TOWER|RIVER|JC|SD)[_-]/);
      expect(w, `${t.id}: ${w}`).not.toMatch(/\b[NESW]\b|\b[NESW][-+][NESW]\b|\bcol \d|\(s\)|,,|\s[,;]/);
    }
  });

  it('tell every tile type apart, except the cells of one piece', () => {
    const byWords = new Map<string, string[]>();
    for (const t of catalog.all()) byWords.set(words.get(t.id)!, [...(byWords.get(words.get(t.id)!) ?? []), t.id]);
    const shared = [...byWords].filter(([, ids]) => ids.length > 1);
    for (const [w, ids] of shared) {
      expect(w, ids.join(' ')).toMatch(/^(Tournament tile|Fortress tile \d)/);
      expect(new Set(ids.map((id) => id.replace(/-\d$/, ''))).size, w).toBe(1);
    }
  });

  it('keep what tells two shapes apart and drop what only the pose says', () => {
    expect(tileWords(catalog.get('BASE_H')!)).toMatch(/^Two separate city caps on opposite sides/);
    expect(tileWords(catalog.get('BASE_I')!)).toMatch(/^Two separate city caps on adjacent sides/);
    expect(tileWords(catalog.get('BASE_W')!)).toBe('T-junction: three roads end at the centre');
    expect(tileWords(catalog.get('IC_N')!)).toBe('City on two sides; road with inn ends at the city');
    expect(tileWords(catalog.get('JC-P-02')!)).toBe('Prize tile: city cap with statue, no coat of arms');
    expect(tileWords(catalog.get('JC-TOURNAMENT-4')!)).toBe('Tournament tile');
    expect(words.get('BASE_U')).toBe('Straight road (Base game)');
    expect(words.get('SD-L-07')).toBe('Straight road (Siege & Defense, 1 of 2)');
  });
});
