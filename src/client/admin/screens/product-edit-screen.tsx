import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { createProductSchema, productFieldsSchema } from '@/shared/schemas/admin.ts';
import { useCatalogOptions } from '../api/get-catalog-options.ts';
import { useAdminProduct } from '../api/get-product.ts';
import { saveProduct, setProductActive, useProductMutation } from '../api/save-product.ts';
import { buttonClass, fieldClass, Panel, ScreenTitle, serverFields } from '../components/admin-ui.tsx';
import { useCan } from '../components/permissions.tsx';
import { ProductDocumentsPanel } from './product-documents-panel.tsx';
import { SafetyFields, SobrePedidoFields } from './product-field-groups.tsx';
import { EMPTY, Field, type Form, toForm } from './product-form.tsx';
import { ProductMediaPanel } from './product-media-panel.tsx';
import { ProductStockPanel } from './product-stock-panel.tsx';

export function ProductEditScreen() {
  const params = useParams();
  const code = params.code ?? null;
  const navigate = useNavigate();
  const can = useCan();
  useDocumentTitle(code ? `Producto ${code} — Administración` : 'Nuevo producto — Administración');
  const product = useAdminProduct(code ?? '', code !== null);
  const options = useCatalogOptions();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors },
  } = useForm<Form>({
    // The shared schema of the request (a new product's also checks its code and initial stock). Raw values
    // go to the server, which parses them again with the same schema.
    resolver: zodResolver(code ? productFieldsSchema : createProductSchema, undefined, {
      raw: true,
    }) as unknown as Resolver<Form>,
    defaultValues: EMPTY,
  });
  // Filled once the group list is there too: a value set on a <select> before its <option> exists is lost, and the
  // editor showed «Elija un grupo» for every product whose data arrived before the catalogue's options (issue 37).
  const optionsReady = Boolean(options.data);
  useEffect(() => {
    if (product.data && !optionsReady) return;
    reset(product.data ? toForm(product.data) : EMPTY);
  }, [product.data, optionsReady, reset]);
  const save = useProductMutation((f: Form) => {
    // A presentation takes its family's controlled flag (decision 030): the base's value decides.
    const { code: c, stock, controlled, ...rest } = f;
    const fields = { ...rest, ...(rest.familyCode.trim() ? {} : { controlled }) };
    return code
      ? saveProduct(code, fields)
      : saveProduct(null, { ...fields, code: c, stock: Number(stock || 0) });
  });
  const toggle = useProductMutation((active: boolean) => setProductActive(code ?? '', active));
  const fields = serverFields(save.error);
  const err = (key: keyof Form) => errors[key]?.message ?? fields[key];
  const isPresentation = watch('familyCode').trim() !== '';

  if (code && product.isPending) return <Spinner />;
  if (code && product.error) return <Alert tone="danger">{product.error.message}</Alert>;

  const submit = handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: (data) => {
        toast.success(data.message);
        if (!code) navigate(`/admin/productos/${encodeURIComponent(data.product.code)}`, { replace: true });
      },
    }),
  );
  const top = (options.data?.groups ?? []).filter((g) => g.parentClas === null);

  return (
    <>
      <Link to="/admin/productos" className="text-sm text-brand-700 hover:underline">
        ← Productos
      </Link>
      <ScreenTitle
        title={code ? `${code} · ${product.data?.name ?? ''}` : 'Nuevo producto'}
        actions={
          code && product.data ? (
            <div className="flex flex-wrap gap-2">
              {product.data.active ? (
                <a
                  href={`/productos/${encodeURIComponent(code)}`}
                  target="_blank"
                  rel="noreferrer"
                  className={buttonClass.secondary}
                >
                  Ver en la tienda ↗
                </a>
              ) : null}
              <button
                type="button"
                className={product.data.active ? buttonClass.danger : buttonClass.primary}
                disabled={toggle.isPending}
                onClick={() =>
                  toggle.mutate(!product.data.active, {
                    onSuccess: (d) => toast.success(d.message),
                    onError: (e) => toast.error(e.message),
                  })
                }
              >
                {product.data.active ? 'Desactivar' : 'Activar'}
              </button>
            </div>
          ) : null
        }
      />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-5 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <Panel title="Datos del producto">
          <form
            onSubmit={submit}
            noValidate
            className="grid gap-4 sm:grid-cols-2"
            aria-label="Datos del producto"
          >
            {code ? null : (
              <Field
                label="Código"
                error={err('code')}
                hint="Letras, números y - . _ /; no se puede cambiar después"
              >
                <input className={fieldClass} {...register('code')} aria-invalid={Boolean(err('code'))} />
              </Field>
            )}
            <Field label="Nombre" error={err('name')} className={code ? 'sm:col-span-2' : ''}>
              <input className={fieldClass} {...register('name')} aria-invalid={Boolean(err('name'))} />
            </Field>
            <Field label="Marca" error={err('brand')} hint="Una marca nueva se crea al guardar">
              <input className={fieldClass} list="marcas" {...register('brand')} />
              <datalist id="marcas">
                {options.data?.brands.map((b) => (
                  <option key={b} value={b} />
                ))}
              </datalist>
            </Field>
            <Field label="Grupo" error={err('groupClas')}>
              <select
                className={fieldClass}
                {...register('groupClas')}
                aria-invalid={Boolean(err('groupClas'))}
              >
                <option value="">Elija un grupo</option>
                {top.map((g) => (
                  <optgroup key={g.clas} label={g.name}>
                    <option value={g.clas}>{g.name} (general)</option>
                    {options.data?.groups
                      .filter((s) => s.parentClas === g.clas)
                      .map((s) => (
                        <option key={s.clas} value={s.clas}>
                          {s.name}
                        </option>
                      ))}
                  </optgroup>
                ))}
              </select>
            </Field>
            <Field label="Línea" error={err('line')}>
              <input className={fieldClass} {...register('line')} />
            </Field>
            <Field label="Tipo" error={err('type')}>
              <input className={fieldClass} {...register('type')} />
            </Field>
            <Field
              label="Precio con IVA (MXN)"
              error={err('price')}
              hint="Con punto o coma decimal: 1234.50 o 1234,50"
            >
              <input
                className={fieldClass}
                inputMode="decimal"
                {...register('price')}
                aria-invalid={Boolean(err('price'))}
              />
            </Field>
            <Field label="Peso (kg)" error={err('weightKg')} hint="Para calcular el envío">
              <input
                className={fieldClass}
                inputMode="decimal"
                {...register('weightKg')}
                aria-invalid={Boolean(err('weightKg'))}
              />
            </Field>
            {code ? null : (
              <Field label="Existencia inicial" error={err('stock')}>
                <input className={fieldClass} inputMode="numeric" {...register('stock')} />
              </Field>
            )}
            <Field
              label="Clave de producto SAT"
              error={err('satProductKey')}
              hint="8 dígitos; vacío = la de la tienda"
            >
              <input className={fieldClass} inputMode="numeric" {...register('satProductKey')} />
            </Field>
            <Field label="Clave de unidad SAT" error={err('satUnitKey')} hint="p. ej. H87 (pieza)">
              <input className={fieldClass} {...register('satUnitKey')} />
            </Field>
            <Field
              label="Familia (código del producto base)"
              error={err('familyCode')}
              hint="Vacío = producto propio; con un código, esta es otra presentación de ese producto"
            >
              <input className={fieldClass} {...register('familyCode')} />
            </Field>
            <Field
              label="Presentación"
              error={err('presentationLabel')}
              hint="p. ej. 500 mL, 1 L, caja con 100"
            >
              <input className={fieldClass} {...register('presentationLabel')} />
            </Field>
            <Field
              label="Precios por volumen"
              error={err('priceBreaks')}
              hint="cantidad:precio por pieza con IVA, separados por ; (p. ej. 10:145.00;50:130.00)"
              className="sm:col-span-2"
            >
              <input className={fieldClass} {...register('priceBreaks')} />
            </Field>
            <SafetyFields register={register} err={err} />
            <SobrePedidoFields register={register} err={err} />
            <Field label="Descripción corta" error={err('shortDesc')} className="sm:col-span-2">
              <textarea className={fieldClass} rows={2} {...register('shortDesc')} />
            </Field>
            <Field
              label="Descripción larga (HTML)"
              error={err('longDescHtml')}
              hint="Se guarda saneada: se quitan scripts, estilos y atributos no permitidos"
              className="sm:col-span-2"
            >
              <textarea
                className={`${fieldClass} font-mono text-xs`}
                rows={8}
                {...register('longDescHtml')}
              />
            </Field>
            <div className="sm:col-span-2">
              <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
                <input
                  type="checkbox"
                  className="size-4 accent-brand-700"
                  disabled={isPresentation}
                  {...register('controlled')}
                />
                Producto controlado (Ley Federal para el Control de Precursores Químicos)
              </label>
              <span className={`mt-1 block text-xs ${err('controlled') ? 'text-red-600' : 'text-slate-500'}`}>
                {err('controlled') ??
                  (isPresentation
                    ? 'Se define en el producto base de la familia y aplica a todas sus presentaciones'
                    : 'Pedirá RFC registrado y declaración de uso final al comprarlo; aplica a todas sus presentaciones')}
              </span>
            </div>
            <label className="flex items-center gap-2 text-sm font-medium text-slate-700 sm:col-span-2">
              <input type="checkbox" className="size-4 accent-brand-700" {...register('active')} />
              Activo (visible en la tienda)
            </label>
            {save.error && Object.keys(fields).length === 0 ? (
              <div className="sm:col-span-2">
                <Alert tone="danger">{save.error.message}</Alert>
              </div>
            ) : null}
            <div className={can('catalogo.editar') ? 'sm:col-span-2' : 'hidden'}>
              <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
                {save.isPending ? 'Guardando…' : code ? 'Guardar cambios' : 'Crear producto'}
              </button>
            </div>
          </form>
        </Panel>
        {code && product.data ? (
          <div className="grid content-start gap-5">
            {can('catalogo.editar') ? <ProductMediaPanel product={product.data} /> : null}
            <ProductDocumentsPanel code={product.data.code} />
            {can('existencias.gestionar') ? <ProductStockPanel product={product.data} /> : null}
          </div>
        ) : null}
      </div>
    </>
  );
}
