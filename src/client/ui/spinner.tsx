export function Spinner({ label = 'Cargando…' }: { label?: string }) {
  return (
    <div className="flex justify-center py-16" role="status">
      <span className="size-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
