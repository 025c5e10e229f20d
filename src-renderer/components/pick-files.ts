/** A file picker that works in both modes: the native dialog through the bridge, or an <input type=file>. */
export async function pickFiles(): Promise<File[]> {
  const bridge = window.agentDesk;
  if (bridge) {
    const picked = await bridge.openFiles();
    return picked.map((p) => new File([p.data], p.name, { type: p.type }));
  }
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.onchange = () => resolve(Array.from(input.files ?? []));
    input.oncancel = () => resolve([]);
    input.click();
  });
}
