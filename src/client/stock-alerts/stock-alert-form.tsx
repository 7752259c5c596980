import { useState } from 'react';
import { ApiError, apiFetch } from '@/client/lib/api-client.ts';
import { useSessionUser } from '@/client/lib/auth/session.ts';

/**
 * 'Avísame cuando haya' (issue 35, decision 062) under a product without stock: one mail when it comes back. A
 * signed-in buyer is written to at their account's address; anyone else leaves one. Loaded after hydration, only
 * on a product without stock, so it never weighs on the catalogue's first JavaScript.
 */
export function StockAlertForm({ code }: { code: string }) {
  const { user } = useSessionUser();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<{ busy: boolean; done?: string; error?: string }>({ busy: false });
  if (state.done)
    return (
      <p role="status" className="mt-4 text-sm font-medium text-green-800" data-testid="stock-alert-done">
        {state.done}
      </p>
    );
  return (
    <form
      className="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-3"
      data-testid="stock-alert"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setState({ busy: true });
        try {
          const res = await apiFetch<{ message: string }>('/api/stock-alerts', {
            method: 'POST',
            body: user || !email.trim() ? { code } : { code, email: email.trim() },
          });
          setState({ busy: false, done: res.message });
        } catch (error) {
          setState({
            busy: false,
            error:
              error instanceof ApiError && error.status !== 0
                ? (error.fields?.email ?? error.message)
                : 'Error de conexión; intente de nuevo',
          });
        }
      }}
    >
      <p className="text-sm font-medium text-slate-800">¿Lo necesita? Le avisamos cuando haya existencia.</p>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        {!user && (
          <input
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              if (state.error) setState({ busy: false });
            }}
            placeholder="Su correo electrónico"
            aria-label="Correo electrónico para el aviso"
            aria-invalid={state.error ? true : undefined}
            className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
        )}
        <button
          type="submit"
          disabled={state.busy}
          className="rounded-md border border-brand-700 bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-60"
        >
          Avísame cuando haya
        </button>
      </div>
      {state.error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {state.error}
        </p>
      )}
      <p className="mt-2 text-xs text-slate-500">Un solo correo; puede darse de baja desde él.</p>
    </form>
  );
}
