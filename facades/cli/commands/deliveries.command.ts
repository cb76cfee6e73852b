import { STRING, noPositionals, optional, parse, positional, required } from '../args.ts';
import { CliError, describeRecord, snakeCase, table, type Output, type Runtime } from '../runtime.ts';

type Delivery = Record<string, unknown> & { id: string };
type Header = { name: string; value: string };
type Attempt = {
  number: number;
  at: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  requestHeaders: Header[] | null;
  responseHeaders: Header[] | null;
};
type Page = { webhookDeliveries: { edges: { node: Delivery }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };

export async function deliveries(rt: Runtime, sub: string | undefined, args: string[]): Promise<Output> {
  switch (sub) {
    case 'list': {
      const usage = 'packline deliveries list --org ID [--destination ID] [--json]';
      const p = parse(args, { org: STRING, destination: STRING }, usage);
      noPositionals(p, usage);
      const rows: Delivery[] = [];
      let after: string | null = null;
      do {
        const data: Page = await rt.run<Page>('CliDeliveries', {
          organizationId: required(p, 'org', usage),
          destinationId: optional(p, 'destination'),
          after,
        });
        rows.push(...data.webhookDeliveries.edges.map((edge) => edge.node));
        after = data.webhookDeliveries.pageInfo.hasNextPage ? data.webhookDeliveries.pageInfo.endCursor : null;
      } while (after);
      return {
        json: snakeCase(rows),
        text: table(rows, ['id', 'destinationId', 'eventId', 'status', 'attemptCount', 'lastStatusCode', 'lastError', 'createdAt']),
      };
    }
    case 'show': {
      const usage = 'packline deliveries show DELIVERY_ID [--json]';
      const data = await rt.run<{ webhookDelivery: Delivery & { attempts: Attempt[] } }>('CliDelivery', {
        id: positional(parse(args, {}, usage), 'delivery id', usage),
      });
      const { attempts, ...delivery } = data.webhookDelivery;
      return { json: snakeCase(data.webhookDelivery), text: [describeRecord(delivery), ...attempts.map(describeAttempt)].join('\n\n') };
    }
    case 'retry': {
      const usage = 'packline deliveries retry DELIVERY_ID [--json]';
      const data = await rt.run<{ retryWebhookDelivery: Delivery }>('CliRetryDelivery', {
        id: positional(parse(args, {}, usage), 'delivery id', usage),
      });
      return { json: snakeCase(data.retryWebhookDelivery), text: `retry of ${data.retryWebhookDelivery.id} queued` };
    }
    default:
      throw new CliError(`Unknown command 'deliveries ${sub ?? ''}'. Commands: deliveries list | show | retry`);
  }
}

/** One attempt as the delivery page shows it: the outcome, then the headers each way and the answer's start. */
function describeAttempt(a: Attempt): string {
  const outcome = a.statusCode === null ? (a.error ?? 'no answer') : `HTTP ${a.statusCode}${a.error ? ` (${a.error})` : ''}`;
  const headers = (title: string, list: Header[] | null, none: string) =>
    list ? [`  ${title}:`, ...list.map((h) => `    ${h.name}: ${h.value}`)] : [`  ${title}: ${none}`];
  return [
    `attempt ${a.number} at ${a.at}: ${outcome}, ${a.durationMs} ms`,
    ...headers('headers sent', a.requestHeaders, 'not recorded'),
    ...headers('headers received', a.responseHeaders, a.statusCode === null ? 'none (no answer)' : 'not recorded'),
    `  answer: ${a.responseExcerpt ?? '—'}`,
  ].join('\n');
}
