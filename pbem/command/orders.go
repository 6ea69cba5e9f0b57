package command

// Orders marks the line below which every line is an order (an order that looks like a command, say).
const Orders Name = "ORDERS"

// OrdersCmd is ORDERS.
var OrdersCmd = Descriptor{
	Name:  Orders,
	Help:  []HelpLine{{"ORDERS <game>", "every line below is an order"}},
	Usage: "write ORDERS and maybe a game, like: ORDERS demo1, then your orders below",
	Kind:  Marker, Limit: Unlimited,
	Parse:     oneGame(Orders, true),
	Examples:  []string{"ORDERS demo1", "orders"},
	Malformed: "ORDERS demo1 now",
}
