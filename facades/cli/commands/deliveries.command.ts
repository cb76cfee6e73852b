import type { CliDeliveryQuery } from '../../generated/cli.ts';
import { present } from '../../operation-runner.ts';
import { optional, parse, required } from '../args.ts';
import { allPages, listOutput, recordOutput, sentenceOutput, snakeCase, type Output, type Runtime } from '../runtime.ts';

type Attempt = NonNullable<CliDeliveryQuery['webhookDelivery']>['attempts'][number];

export async function deliveries(rt: Runtime, sub: string, args: string[]): Promise<Output> {
  const p = parse(args, `deliveries ${sub}`);
  switch (sub) {
    case 'list': {
      const variables = { organizationId: required(p, 'org'), destinationId: optional(p, 'destination') };
      const rows = await allPages(async (after) => (await rt.run('CliDeliveries', { ...variables, after })).webhookDeliveries);
      return listOutput(rows, [
        'id',
        'destination_id',
        'event_id',
        'status',
        'attempt_count',
        'last_status_code',
        'last_error',
        'created_at',
      ]);
    }
    case 'show': {
      const delivery = present((await rt.run('CliDelivery', { id: p.operand })).webhookDelivery);
      const { attempts, ...rest } = delivery;
      return { json: snakeCase(delivery), text: [recordOutput(rest).text, ...attempts.map(describeAttempt)].join('\n\n') };
    }
    case 'retry': {
      const { retryWebhookDelivery } = await rt.run('CliRetryDelivery', { id: p.operand });
      return sentenceOutput(retryWebhookDelivery, `retry of ${retryWebhookDelivery.id} queued`);
    }
    default:
      throw new Error(`No runner for 'deliveries ${sub}'`);
  }
}

/** One attempt as the delivery page shows it: the outcome, then the headers each way and the answer's start. */
function describeAttempt(a: Attempt): string {
  const outcome = a.statusCode === null ? (a.error ?? 'no answer') : `HTTP ${a.statusCode}${a.error ? ` (${a.error})` : ''}`;
  const headers = (title: string, list: Attempt['requestHeaders'], none: string) =>
    list ? [`  ${title}:`, ...list.map((h) => `    ${h.name}: ${h.value}`)] : [`  ${title}: ${none}`];
  return [
    `attempt ${a.number} at ${a.at}: ${outcome}, ${a.durationMs} ms`,
    ...headers('headers sent', a.requestHeaders, 'not recorded'),
    ...headers('headers received', a.responseHeaders, a.statusCode === null ? 'none (no answer)' : 'not recorded'),
    `  answer: ${a.responseExcerpt ?? '—'}`,
  ].join('\n');
}
