output "security_group_id" {
  description = "The nodes' security group."
  value       = aws_security_group.node.id
}

output "node_addresses" {
  description = "Private addresses of the nodes, in node order."
  value       = aws_instance.node[*].private_ip
}

output "contact_points" {
  description = "CQL contact points (host:9042) of the DC."
  value       = [for n in var.nodes : "${n.ip}:9042"]
}

output "cassandra_yaml" {
  description = "The cassandra.yaml of each node, by address (the keystore password is filled in on the node)."
  value       = local.cassandra_yaml
}

output "rackdc" {
  description = "The cassandra-rackdc.properties of each node, by address."
  value       = local.rackdc
}
