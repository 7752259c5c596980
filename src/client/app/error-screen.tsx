import { isRouteErrorResponse, useRouteError } from 'react-router';

/** The router's error screen (spec: 'Unexpected Application Error!' with the error's message). */
export function ErrorScreen() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <div className="mx-auto max-w-2xl px-4 py-24">
      <h1 className="text-2xl font-semibold text-red-700">Unexpected Application Error!</h1>
      <p className="mt-3 rounded bg-red-50 p-4 font-mono text-sm text-red-800">{message}</p>
      <a href="/" className="mt-6 inline-block text-brand-700 underline">
        Volver al inicio
      </a>
    </div>
  );
}
