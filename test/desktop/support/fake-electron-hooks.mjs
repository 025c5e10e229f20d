const fake = new URL('./fake-electron-node.mjs', import.meta.url).href;
export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: fake, shortCircuit: true };
  return next(specifier, context);
}
