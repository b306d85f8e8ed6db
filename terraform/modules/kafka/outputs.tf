output "security_group_id" {
  description = "The Kafka nodes' security group."
  value       = aws_security_group.node.id
}

output "bootstrap_servers" {
  description = "Kafka bootstrap servers (host:9092,...) of the region."
  value       = join(",", [for b in var.brokers : "${b.ip}:9092"])
}

output "cluster_id" {
  description = "The KRaft cluster id."
  value       = local.cluster_id
}

output "server_properties" {
  description = "The server.properties of each node, in node order."
  value       = local.server_properties
}

output "ingress" {
  description = "Every ingress rule of the Kafka nodes' security group (for audits and tests)."
  value = [for r in concat([aws_vpc_security_group_ingress_rule.cluster], aws_vpc_security_group_ingress_rule.clients) : {
    from_port = r.from_port, to_port = r.to_port, cidr_ipv4 = r.cidr_ipv4, cidr_ipv6 = r.cidr_ipv6, referenced_security_group_id = r.referenced_security_group_id
  }]
}
