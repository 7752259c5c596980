/** A one-line progress display for long command-line work (a plain line per step when not a TTY). */
export function createProgress(label: string) {
  const started = Date.now();
  let last = 0;
  return (done: number, total: number) => {
    const now = Date.now();
    if (done < total && now - last < 200) return;
    last = now;
    const pct = total === 0 ? 100 : Math.floor((done / total) * 100);
    const width = 30;
    const bar = '█'.repeat(Math.round((pct / 100) * width)).padEnd(width, '░');
    const secs = ((now - started) / 1000).toFixed(1);
    const line = `${label} ${bar} ${pct}% (${done.toLocaleString('es-MX')}/${total.toLocaleString('es-MX')}) ${secs} s`;
    if (process.stdout.isTTY) process.stdout.write(`\r${line}${done >= total ? '\n' : ''}`);
    else console.log(line);
  };
}
