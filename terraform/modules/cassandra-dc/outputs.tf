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

output "ingress" {
  description = "Every ingress rule of the nodes' security group (for audits and tests)."
  value = [for r in concat([aws_vpc_security_group_ingress_rule.internode_local], values(aws_vpc_security_group_ingress_rule.internode_peer), aws_vpc_security_group_ingress_rule.cql) : {
    from_port = r.from_port, to_port = r.to_port, cidr_ipv4 = r.cidr_ipv4, cidr_ipv6 = r.cidr_ipv6, referenced_security_group_id = r.referenced_security_group_id
  }]
}
