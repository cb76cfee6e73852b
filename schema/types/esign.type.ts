import type { ConnectedEsignProvider, EsignConnectionView, EsignReceipt } from '../../core/services/esign.service.ts';
import { builder } from '../builder.ts';

// Field names avoid the private objects' vocabulary (see test/graphql/schema-sdl.test.ts): the
// provider's header travels as `hmac`, and the receipt counts rows without naming them.

export const EsignConnectionRef = builder.objectRef<EsignConnectionView>('EsignConnection').implement({
  description: "An organization's link to its e-signature provider. The secret is shown once, at connection.",
  authScopes: { internal: true },
  fields: (t) => ({
    id: t.exposeID('id', { description: "The connection's id; part of its inbound address." }),
    organizationId: t.exposeID('organizationId', { description: 'The organization that connected the provider.' }),
    provider: t.exposeString('provider', { description: "The e-signature provider's name, as given at connection." }),
    createdAt: t.expose('createdAt', { description: 'When the provider was connected.', type: 'DateTime' }),
    inboundPath: t.exposeString('inboundPath', { description: 'Where the provider posts notifications, below the public base URL.' }),
  }),
});

const ConnectedEsignProviderRef = builder.objectRef<ConnectedEsignProvider>('ConnectedEsignProvider').implement({
  description: 'A new e-signature connection and, this once, its signing secret.',
  fields: (t) => ({
    connection: t.expose('connection', { description: 'The stored connection.', type: EsignConnectionRef }),
    secret: t.exposeString('secret', {
      description: 'The secret the provider signs notifications with. Shown this once: give it to the provider now.',
    }),
  }),
});

const EsignReceiptRef = builder.objectRef<EsignReceipt>('EsignReceipt').implement({
  description: 'What a provider notification changed.',
  fields: (t) => ({
    duplicate: t.exposeBoolean('duplicate', { description: 'The provider event id was applied before; nothing changed.' }),
    updated: t.exposeInt('updated', { description: 'How many rows took the notified state.' }),
  }),
});

builder.queryFields((t) => ({
  esignConnections: t.field({
    type: [EsignConnectionRef],
    description: "An organization's e-signature provider connections, oldest first.",
    authScopes: { internal: true },
    args: { organizationId: t.arg.id({ description: 'The organization whose connections to list.', required: true }) },
    resolve: (_root, { organizationId }, ctx) => ctx.services.esign.list(ctx.actor, String(organizationId)),
  }),
}));

builder.mutationFields((t) => ({
  connectEsignProvider: t.field({
    type: ConnectedEsignProviderRef,
    description: 'Connects an e-signature provider; the signing secret is returned this once.',
    authScopes: { internal: true },
    args: {
      organizationId: t.arg.id({ description: 'The organization connecting its provider.', required: true }),
      provider: t.arg.string({ description: "The provider's name.", required: true }),
    },
    resolve: (_root, { organizationId, provider }, ctx) =>
      ctx.services.esign.connect(ctx.actor, { organizationId: String(organizationId), provider }),
  }),
  disconnectEsignProvider: t.field({
    type: EsignConnectionRef,
    description: "Removes a connection; the provider's later notifications are refused.",
    authScopes: { internal: true },
    args: { id: t.arg.id({ description: 'The id of the connection to remove.', required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.esign.disconnect(ctx.actor, String(id)),
  }),
  receiveEsignNotification: t.field({
    type: EsignReceiptRef,
    description: 'Applies a provider notification once (behind the inbound address). FORBIDDEN when the HMAC or the connection is wrong.',
    authScopes: { internal: true },
    args: {
      connectionId: t.arg.id({ description: 'The connection named by the inbound address the provider posted to.', required: true }),
      body: t.arg.string({ required: true, description: 'The raw request body, verbatim.' }),
      hmac: t.arg.string({
        required: true,
        description: 'The X-Esign-Signature header as received: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">.',
      }),
    },
    resolve: (_root, { connectionId, body, hmac }, ctx) => ctx.services.esign.receive(ctx.actor, String(connectionId), body, hmac),
  }),
}));
