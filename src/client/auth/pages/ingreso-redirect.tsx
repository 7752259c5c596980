import { Navigate, useLocation } from 'react-router';

/** /ingreso → /ingresar, keeping the query (SPEC-NOTES 1). */
export function Component() {
  const { search } = useLocation();
  return <Navigate to={`/ingresar${search}`} replace />;
}
