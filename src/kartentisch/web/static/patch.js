// State patches (docs/web-protocol.md, "State patches"): after a whole state, the
// server sends each state as what changed against the one it sent before.

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** ``target`` with ``changes`` merged in: objects member by member, anything else whole. */
function merge(target, changes) {
  const out = { ...target };
  for (const [key, value] of Object.entries(changes)) {
    out[key] = isObject(value) && isObject(out[key]) ? merge(out[key], value) : value;
  }
  return out;
}

/** ``target`` without the member at ``path`` (a list of keys). */
function without(target, path) {
  const [key, ...rest] = path;
  const out = { ...target };
  if (rest.length === 0) delete out[key];
  else if (isObject(out[key])) out[key] = without(out[key], rest);
  return out;
}

/**
 * The state a ``patch`` message makes of ``old``, a new object (``old`` is left as it
 * was; what did not change is shared with it); null when ``old`` is not the state of
 * the patch's base version (the page then asks for a whole state: ``resync``).
 */
export function applyPatch(old, patch) {
  if (!old || old.version !== patch.base) return null;
  let out = merge(old, patch.set || {});
  for (const path of patch.unset || []) if (path.length) out = without(out, path);
  return out;
}
