// The delivery pages: what the destination page lists, and the routes of one delivery.
export { asPageFailure, deliveriesTable, failingSince } from './delivery-list-view.ts';
export { mountDeliveryPages } from './delivery-routes.ts';
export { deliveryView } from './delivery-views.ts';
