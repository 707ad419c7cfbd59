// The payment processor's API operations the simulator searches: method, path, summary and the
// top-level parameters with their types. Parameter descriptions are deliberately absent (the spec
// says the search omits them). Written as compact rows; `operations` expands them.
export interface ApiOperation {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  summary: string;
  parameters: Array<{ name: string; type: string }>;
}

type Row = [ApiOperation['method'], string, string, string];

const LIST = 'limit:integer,starting_after:string,ending_before:string';

const rows: Row[] = [
  ['POST', '/v1/payment_intents', 'Create a PaymentIntent to collect a payment from a customer', 'amount:integer,currency:string,customer:string,payment_method:string,payment_method_types:array,capture_method:string,confirm:boolean,description:string,metadata:object,receipt_email:string'],
  ['GET', '/v1/payment_intents/{intent}', 'Retrieve a PaymentIntent', 'intent:string,client_secret:string'],
  ['POST', '/v1/payment_intents/{intent}', 'Update a PaymentIntent before it is confirmed', 'intent:string,amount:integer,currency:string,customer:string,description:string,metadata:object'],
  ['POST', '/v1/payment_intents/{intent}/confirm', 'Confirm a PaymentIntent so the customer is charged', 'intent:string,payment_method:string,return_url:string,off_session:boolean'],
  ['POST', '/v1/payment_intents/{intent}/capture', 'Capture the funds of an authorized PaymentIntent', 'intent:string,amount_to_capture:integer,metadata:object'],
  ['POST', '/v1/payment_intents/{intent}/cancel', 'Cancel a PaymentIntent that has not succeeded', 'intent:string,cancellation_reason:string'],
  ['GET', '/v1/payment_intents', 'List PaymentIntents', `customer:string,created:object,${LIST}`],
  ['GET', '/v1/payment_intents/search', 'Search PaymentIntents with a query language', 'query:string,limit:integer,page:string'],
  ['POST', '/v1/setup_intents', 'Create a SetupIntent to save a payment method for future payments', 'customer:string,payment_method_types:array,usage:string,metadata:object'],
  ['GET', '/v1/setup_intents/{intent}', 'Retrieve a SetupIntent', 'intent:string'],
  ['POST', '/v1/setup_intents/{intent}/confirm', 'Confirm a SetupIntent', 'intent:string,payment_method:string,return_url:string'],
  ['POST', '/v1/setup_intents/{intent}/cancel', 'Cancel a SetupIntent', 'intent:string,cancellation_reason:string'],
  ['POST', '/v1/charges', 'Create a charge on a card or other payment source (legacy)', 'amount:integer,currency:string,source:string,customer:string,description:string,capture:boolean,metadata:object'],
  ['GET', '/v1/charges/{charge}', 'Retrieve a charge', 'charge:string'],
  ['GET', '/v1/charges', 'List charges', `customer:string,payment_intent:string,created:object,${LIST}`],
  ['POST', '/v1/charges/{charge}/capture', 'Capture an uncaptured charge', 'charge:string,amount:integer,receipt_email:string'],
  ['POST', '/v1/refunds', 'Create a refund for a charge or payment intent, fully or partially', 'charge:string,payment_intent:string,amount:integer,reason:string,metadata:object'],
  ['GET', '/v1/refunds/{refund}', 'Retrieve a refund', 'refund:string'],
  ['GET', '/v1/refunds', 'List refunds', `charge:string,payment_intent:string,${LIST}`],
  ['POST', '/v1/refunds/{refund}/cancel', 'Cancel a pending refund', 'refund:string'],
  ['POST', '/v1/customers', 'Create a customer', 'email:string,name:string,phone:string,address:object,description:string,payment_method:string,metadata:object'],
  ['GET', '/v1/customers/{customer}', 'Retrieve a customer', 'customer:string'],
  ['POST', '/v1/customers/{customer}', 'Update a customer', 'customer:string,email:string,name:string,phone:string,address:object,invoice_settings:object,metadata:object'],
  ['DELETE', '/v1/customers/{customer}', 'Delete a customer permanently and cancel their subscriptions', 'customer:string'],
  ['GET', '/v1/customers', 'List customers', `email:string,created:object,${LIST}`],
  ['GET', '/v1/customers/search', 'Search customers with a query language', 'query:string,limit:integer,page:string'],
  ['GET', '/v1/customers/{customer}/payment_methods', 'List the payment methods saved for a customer', `customer:string,type:string,${LIST}`],
  ['POST', '/v1/customers/{customer}/balance_transactions', 'Adjust the credit balance of a customer', 'customer:string,amount:integer,currency:string,description:string'],
  ['POST', '/v1/payment_methods', 'Create a payment method such as a card or bank account', 'type:string,card:object,billing_details:object,metadata:object'],
  ['GET', '/v1/payment_methods/{payment_method}', 'Retrieve a payment method', 'payment_method:string'],
  ['POST', '/v1/payment_methods/{payment_method}/attach', 'Attach a payment method to a customer', 'payment_method:string,customer:string'],
  ['POST', '/v1/payment_methods/{payment_method}/detach', 'Detach a payment method from a customer', 'payment_method:string'],
  ['POST', '/v1/products', 'Create a product', 'name:string,description:string,active:boolean,images:array,default_price_data:object,metadata:object'],
  ['GET', '/v1/products/{id}', 'Retrieve a product', 'id:string'],
  ['POST', '/v1/products/{id}', 'Update a product', 'id:string,name:string,description:string,active:boolean,metadata:object'],
  ['GET', '/v1/products', 'List products', `active:boolean,${LIST}`],
  ['DELETE', '/v1/products/{id}', 'Delete a product that has no prices', 'id:string'],
  ['POST', '/v1/prices', 'Create a price for a product, one-time or recurring', 'product:string,unit_amount:integer,currency:string,recurring:object,nickname:string,metadata:object'],
  ['GET', '/v1/prices/{price}', 'Retrieve a price', 'price:string'],
  ['GET', '/v1/prices', 'List prices', `product:string,active:boolean,type:string,${LIST}`],
  ['POST', '/v1/subscriptions', 'Create a subscription that bills a customer on a recurring basis', 'customer:string,items:array,trial_period_days:integer,default_payment_method:string,collection_method:string,metadata:object'],
  ['GET', '/v1/subscriptions/{subscription}', 'Retrieve a subscription', 'subscription:string'],
  ['POST', '/v1/subscriptions/{subscription}', 'Update a subscription: change plan, quantity or trial', 'subscription:string,items:array,proration_behavior:string,cancel_at_period_end:boolean,metadata:object'],
  ['DELETE', '/v1/subscriptions/{subscription}', 'Cancel a subscription immediately', 'subscription:string,invoice_now:boolean,prorate:boolean'],
  ['GET', '/v1/subscriptions', 'List subscriptions', `customer:string,price:string,status:string,${LIST}`],
  ['POST', '/v1/subscriptions/{subscription}/resume', 'Resume a paused subscription', 'subscription:string,billing_cycle_anchor:string'],
  ['POST', '/v1/invoices', 'Create a draft invoice for a customer', 'customer:string,collection_method:string,days_until_due:integer,description:string,auto_advance:boolean,metadata:object'],
  ['GET', '/v1/invoices/{invoice}', 'Retrieve an invoice', 'invoice:string'],
  ['POST', '/v1/invoices/{invoice}/finalize', 'Finalize a draft invoice so it can be paid', 'invoice:string,auto_advance:boolean'],
  ['POST', '/v1/invoices/{invoice}/pay', 'Pay an invoice now, outside the normal collection schedule', 'invoice:string,payment_method:string,paid_out_of_band:boolean'],
  ['POST', '/v1/invoices/{invoice}/send', 'Send an invoice to the customer by email', 'invoice:string'],
  ['POST', '/v1/invoices/{invoice}/void', 'Void a finalized invoice', 'invoice:string'],
  ['GET', '/v1/invoices', 'List invoices', `customer:string,subscription:string,status:string,${LIST}`],
  ['GET', '/v1/invoices/upcoming', 'Preview the upcoming invoice of a customer or subscription', 'customer:string,subscription:string,subscription_items:array'],
  ['POST', '/v1/invoiceitems', 'Create an invoice item to add to the next invoice', 'customer:string,amount:integer,currency:string,description:string,invoice:string,price:string'],
  ['POST', '/v1/coupons', 'Create a coupon for a percentage or amount discount', 'percent_off:number,amount_off:integer,currency:string,duration:string,duration_in_months:integer,name:string'],
  ['GET', '/v1/coupons/{coupon}', 'Retrieve a coupon', 'coupon:string'],
  ['POST', '/v1/promotion_codes', 'Create a promotion code customers can redeem for a coupon', 'coupon:string,code:string,max_redemptions:integer,expires_at:integer,restrictions:object'],
  ['GET', '/v1/balance', 'Retrieve the current account balance, available and pending', ''],
  ['GET', '/v1/balance_transactions', 'List balance transactions that moved funds in or out of the account', `payout:string,type:string,source:string,created:object,${LIST}`],
  ['POST', '/v1/payouts', 'Create a payout of the available balance to a bank account', 'amount:integer,currency:string,destination:string,method:string,description:string,metadata:object'],
  ['GET', '/v1/payouts/{payout}', 'Retrieve a payout', 'payout:string'],
  ['GET', '/v1/payouts', 'List payouts', `status:string,arrival_date:object,${LIST}`],
  ['POST', '/v1/payouts/{payout}/cancel', 'Cancel a pending payout', 'payout:string'],
  ['POST', '/v1/transfers', 'Create a transfer of funds to a connected account', 'amount:integer,currency:string,destination:string,transfer_group:string,source_transaction:string,metadata:object'],
  ['GET', '/v1/transfers', 'List transfers', `destination:string,transfer_group:string,${LIST}`],
  ['POST', '/v1/transfers/{id}/reversals', 'Reverse a transfer, fully or partially', 'id:string,amount:integer,description:string,refund_application_fee:boolean'],
  ['POST', '/v1/accounts', 'Create a connected account for a platform', 'type:string,country:string,email:string,capabilities:object,business_type:string,metadata:object'],
  ['GET', '/v1/accounts/{account}', 'Retrieve a connected account', 'account:string'],
  ['DELETE', '/v1/accounts/{account}', 'Delete a connected account', 'account:string'],
  ['POST', '/v1/account_links', 'Create an account link for connected account onboarding', 'account:string,refresh_url:string,return_url:string,type:string'],
  ['GET', '/v1/disputes/{dispute}', 'Retrieve a dispute (chargeback)', 'dispute:string'],
  ['POST', '/v1/disputes/{dispute}', 'Submit evidence to respond to a dispute', 'dispute:string,evidence:object,submit:boolean,metadata:object'],
  ['POST', '/v1/disputes/{dispute}/close', 'Close a dispute, accepting the chargeback', 'dispute:string'],
  ['GET', '/v1/disputes', 'List disputes', `charge:string,payment_intent:string,${LIST}`],
  ['POST', '/v1/checkout/sessions', 'Create a hosted Checkout Session for a payment or subscription', 'mode:string,line_items:array,success_url:string,cancel_url:string,customer:string,customer_email:string,metadata:object'],
  ['GET', '/v1/checkout/sessions/{session}', 'Retrieve a Checkout Session', 'session:string'],
  ['POST', '/v1/checkout/sessions/{session}/expire', 'Expire an open Checkout Session', 'session:string'],
  ['POST', '/v1/payment_links', 'Create a shareable payment link', 'line_items:array,after_completion:object,allow_promotion_codes:boolean,metadata:object'],
  ['POST', '/v1/billing_portal/sessions', 'Create a customer portal session to manage billing', 'customer:string,return_url:string,configuration:string'],
  ['POST', '/v1/webhook_endpoints', 'Create a webhook endpoint to receive event notifications', 'url:string,enabled_events:array,description:string,api_version:string,metadata:object'],
  ['GET', '/v1/webhook_endpoints', 'List webhook endpoints', LIST],
  ['DELETE', '/v1/webhook_endpoints/{webhook_endpoint}', 'Delete a webhook endpoint', 'webhook_endpoint:string'],
  ['GET', '/v1/events/{id}', 'Retrieve an event', 'id:string'],
  ['GET', '/v1/events', 'List events from the last 30 days', `type:string,types:array,created:object,${LIST}`],
  ['POST', '/v1/tax_rates', 'Create a tax rate', 'display_name:string,percentage:number,inclusive:boolean,country:string,jurisdiction:string'],
  ['POST', '/v1/tokens', 'Create a single-use token for a card or bank account', 'card:object,bank_account:object,customer:string'],
  ['POST', '/v1/files', 'Upload a file such as dispute evidence or an identity document', 'file:string,purpose:string,file_link_data:object'],
  ['POST', '/v1/reporting/report_runs', 'Run a financial report such as a balance summary', 'report_type:string,parameters:object'],
  ['POST', '/v1/terminal/readers/{reader}/process_payment_intent', 'Hand a PaymentIntent to a card reader for in-person payment', 'reader:string,payment_intent:string,process_config:object'],
];

export const operations: ApiOperation[] = rows.map(([method, path, summary, params]) => ({
  method,
  path,
  summary,
  parameters: params
    ? params.split(',').map((p) => {
        const [name, type] = p.split(':') as [string, string];
        return { name, type };
      })
    : [],
}));
