import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminProductListSchema,
  adminProductResponseSchema,
  adminProductSchema,
  adminProductsQuerySchema,
  catalogOptionsSchema,
  createProductSchema,
  productCodeParamsSchema,
  productFieldsSchema,
  setActiveSchema,
  stockAdjustmentSchema,
  stockMovementsSchema,
  uploadDatasheetSchema,
  uploadImageSchema,
} from '../../shared/schemas/admin.ts';
import { staffActor } from './context.ts';
import {
  adjustStock,
  catalogOptions,
  createProduct,
  getAdminProduct,
  listAdminProducts,
  setProductActive,
  setProductMedia,
  stockMovementsOf,
  updateProduct,
} from './products-service.ts';

const tags = ['administración'];
const MB = 1024 * 1024;

export const productAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/catalog-options',
    {
      config: { permission: 'catalogo.ver' },
      schema: {
        tags,
        summary: 'Marcas y grupos para el formulario de producto',
        response: { 200: catalogOptionsSchema },
      },
    },
    async () => catalogOptions(app.db),
  );

  app.get(
    '/api/admin/products',
    {
      config: { permission: 'catalogo.ver' },
      schema: {
        tags,
        summary: 'Productos (activos e inactivos) por código, nombre o marca',
        querystring: adminProductsQuerySchema,
        response: { 200: adminProductListSchema },
      },
    },
    async (request) => listAdminProducts(app.db, request.query),
  );

  app.get(
    '/api/admin/products/:code',
    {
      config: { permission: 'catalogo.ver' },
      schema: {
        tags,
        summary: 'Un producto para editarlo',
        params: productCodeParamsSchema,
        response: { 200: adminProductSchema },
      },
    },
    async (request) => getAdminProduct(app.db, request.params.code),
  );

  app.post(
    '/api/admin/products',
    {
      config: { permission: 'catalogo.editar' },
      schema: {
        tags,
        summary: 'Crea un producto (HTML saneado; marca nueva creada; existencia inicial en la bitácora)',
        body: createProductSchema,
        response: { 201: adminProductResponseSchema },
      },
    },
    async (request, reply) => {
      const product = await createProduct(app.db, await staffActor(request), request.body);
      return reply.code(201).send({ message: `Producto ${product.code} creado`, product });
    },
  );

  app.put(
    '/api/admin/products/:code',
    {
      config: { permission: 'catalogo.editar' },
      schema: {
        tags,
        summary: 'Modifica un producto (la existencia se cambia con ajustes)',
        params: productCodeParamsSchema,
        body: productFieldsSchema,
        response: { 200: adminProductResponseSchema },
      },
    },
    async (request) => {
      const product = await updateProduct(
        app.db,
        await staffActor(request),
        request.params.code,
        request.body,
      );
      return { message: 'Cambios guardados', product };
    },
  );

  app.post(
    '/api/admin/products/:code/active',
    {
      config: { permission: 'catalogo.editar' },
      schema: {
        tags,
        summary: 'Activa o desactiva un producto',
        params: productCodeParamsSchema,
        body: setActiveSchema,
        response: { 200: adminProductResponseSchema },
      },
    },
    async (request) => {
      const { active } = request.body;
      const product = await setProductActive(app.db, await staffActor(request), request.params.code, active);
      return {
        message: active ? 'Producto activado' : 'Producto desactivado: ya no se muestra en la tienda',
        product,
      };
    },
  );

  app.put(
    '/api/admin/products/:code/image',
    {
      config: { permission: 'catalogo.editar' },
      bodyLimit: 8 * MB,
      schema: {
        tags,
        summary: 'Imagen del producto: JPEG, PNG o WebP hasta 5 MB, en base64',
        params: productCodeParamsSchema,
        body: uploadImageSchema,
        response: { 200: adminProductResponseSchema },
      },
    },
    async (request) => {
      const data = Buffer.from(request.body.contentBase64, 'base64');
      const product = await setProductMedia(
        app.db,
        await staffActor(request),
        request.params.code,
        'image',
        data,
      );
      return { message: 'Imagen actualizada', product };
    },
  );

  app.put(
    '/api/admin/products/:code/datasheet',
    {
      config: { permission: 'catalogo.editar' },
      bodyLimit: 15 * MB,
      schema: {
        tags,
        summary: 'Ficha técnica del producto: PDF hasta 10 MB, en base64',
        params: productCodeParamsSchema,
        body: uploadDatasheetSchema,
        response: { 200: adminProductResponseSchema },
      },
    },
    async (request) => {
      const data = Buffer.from(request.body.contentBase64, 'base64');
      const product = await setProductMedia(
        app.db,
        await staffActor(request),
        request.params.code,
        'datasheet',
        data,
      );
      return { message: 'Ficha técnica actualizada', product };
    },
  );

  app.post(
    '/api/admin/products/:code/stock',
    {
      config: { permission: 'existencias.gestionar' },
      schema: {
        tags,
        summary: 'Ajuste de existencia con motivo (nunca negativa); queda en la bitácora de movimientos',
        params: productCodeParamsSchema,
        body: stockAdjustmentSchema,
        response: { 200: adminProductResponseSchema },
      },
    },
    async (request) => adjustStock(app.db, await staffActor(request), request.params.code, request.body),
  );

  app.get(
    '/api/admin/products/:code/movements',
    {
      config: { permission: 'existencias.gestionar' },
      schema: {
        tags,
        summary: 'Movimientos de existencia del producto',
        params: productCodeParamsSchema,
        response: { 200: stockMovementsSchema },
      },
    },
    async (request) => stockMovementsOf(app.db, request.params.code),
  );
};
