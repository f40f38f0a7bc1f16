function deliveryCity(order) {
  return order.customer.address.city.toUpperCase();
}
