// A patch's operations (docs/protocol.md, the `patch` message), applied in order exactly as
// the server's rooms/patch.py applies them: tests/rooms/patch_vectors.json holds the cases
// both must agree on. The result is a new object, so the caller keeps the old state for
// its "what changed" checks.
export function applyPatch(value, ops) {
  let result = structuredClone(value);
  for (const [kind, path, arg] of ops) {
    if (path.length === 0) {
      // The whole state replaced; later operations apply to the new one.
      result = structuredClone(arg);
      continue;
    }
    let parent = result;
    for (const key of path.slice(0, -1)) parent = parent[key];
    const last = path[path.length - 1];
    if (kind === "set") parent[last] = structuredClone(arg);
    else if (kind === "del") {
      if (Array.isArray(parent)) parent.splice(last, 1);
      else delete parent[last];
    }
    else if (kind === "push") parent[last].push(...structuredClone(arg));
    else throw new Error(`unknown patch operation ${kind}`);
  }
  return result;
}
