output "broker_security_group_id" {
  description = "The broker's security group (allowed on CQL and Kafka)."
  value       = aws_security_group.broker.id
}

output "ticker_security_group_id" {
  description = "The ticker-service's security group (allowed on Kafka)."
  value       = aws_security_group.ticker.id
}

output "broker_url" {
  description = "The broker's REST base URL inside the deployment."
  value       = "http://${var.broker.ip}:8080"
}

output "broker_instance_id" {
  description = "The broker's instance (target of the schema job, see README)."
  value       = aws_instance.broker.id
}

output "ingress" {
  description = "Every ingress rule of the services' security groups (for audits and tests)."
  value = [for r in concat(values(aws_vpc_security_group_ingress_rule.rest), values(aws_vpc_security_group_ingress_rule.fix), values(aws_vpc_security_group_ingress_rule.rest_from_peers), values(aws_vpc_security_group_ingress_rule.metrics)) : {
    from_port = r.from_port, to_port = r.to_port, cidr_ipv4 = r.cidr_ipv4, cidr_ipv6 = r.cidr_ipv6, referenced_security_group_id = r.referenced_security_group_id
  }]
}
