// Compact legal actions (docs/rules/README.md, `legal_actions`): an entry may carry `choices`,
// other values some of its fields may take ({one_of: [...]}, or {subset_of: [...], min, max}
// for an array field), and stands for every command they make. The page sends commands only:
// an entry without its choices, or one its choices make.

/** The command an entry is as it stands. */
export function command(entry) {
  const out = { ...entry };
  delete out.choices;
  return out;
}

const bounds = (c) => [c.min || 0, c.max === undefined ? c.subset_of.length : c.max];

function binomial(n, k) {
  let out = 1;
  for (let i = 1; i <= k; i += 1) out = (out * (n - k + i)) / i;
  return Math.round(out);
}

function ways(c) {
  if (c.one_of) return c.one_of.length;
  const [least, most] = bounds(c);
  let out = 0;
  for (let k = least; k <= most; k += 1) out += binomial(c.subset_of.length, k);
  return out;
}

/** How many commands an entry stands for. */
export function count(entry) {
  return Object.values(entry.choices || {}).reduce((n, c) => n * ways(c), 1);
}

function subsets(items, least, most) {
  const out = [];
  const walk = (start, chosen) => {
    if (chosen.length >= least) out.push(chosen);
    if (chosen.length === most) return;
    for (let i = start; i < items.length; i += 1) walk(i + 1, [...chosen, items[i]]);
  };
  walk(0, []);
  return out;
}

/** Every command of an entry, or null when there are more than `limit`. */
export function expand(entry, limit = 64) {
  if (count(entry) > limit) return null;
  let out = [command(entry)];
  for (const [field, c] of Object.entries(entry.choices || {})) {
    const values = c.one_of || subsets(c.subset_of, ...bounds(c));
    out = out.flatMap((cmd) => values.map((v) => ({ ...cmd, [field]: v })));
  }
  return out;
}

/**
 * Commands of an entry to put on cards: all of them when they are few, else the entry as it
 * stands and each command that changes one field of it (a single item for an array field).
 */
export function some(entry, limit = 64) {
  const all = expand(entry, limit);
  if (all) return all;
  const base = command(entry);
  const out = [base];
  for (const [field, c] of Object.entries(entry.choices || {})) {
    if (c.one_of) out.push(...c.one_of.map((v) => ({ ...base, [field]: v })));
    else if (fits(c, [c.subset_of[0]])) out.push(...c.subset_of.map((v) => ({ ...base, [field]: [v] })));
  }
  return out;
}

/** Whether a subset of `chosen.length` items is within the choice's bounds. */
export function fits(choice, chosen) {
  const [least, most] = bounds(choice);
  return chosen.length >= least && chosen.length <= most;
}
