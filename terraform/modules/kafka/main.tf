# Kafka of one region: self-managed Apache Kafka 4.x in KRaft mode on EC2, every node both broker
# and controller, spread over the zones (broker.rack = zone), logs on encrypted EBS.
locals {
  count       = length(var.brokers)
  replication = min(3, local.count)
  # 16 ASCII bytes, base64url without padding: the form `kafka-storage format -t` expects.
  cluster_id = var.cluster_id != "" ? var.cluster_id : replace(replace(trimsuffix(base64encode(substr(md5("geobroker-kafka-${var.name}"), 0, 16)), "=="), "+", "-"), "/", "_")
  voters     = join(",", [for i, b in var.brokers : "${i + 1}@${b.ip}:9093"])

  server_properties = [for i, b in var.brokers : templatefile("${path.module}/templates/server.properties.tftpl", {
    node_id            = i + 1
    address            = b.ip
    rack               = var.azs[b.az]
    voters             = local.voters
    replication        = local.replication
    min_insync         = local.replication >= 3 ? 2 : 1
    transaction_min_is = local.replication >= 3 ? 2 : 1
  })]
}

resource "aws_security_group" "node" {
  name_prefix = "geobroker-${var.name}-kafka-"
  description = "Kafka ${var.name}: clients only from the services, replication and KRaft only between Kafka nodes"
  vpc_id      = var.vpc_id
  tags        = merge(var.tags, { Name = "geobroker-${var.name}-kafka" })

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_vpc_security_group_ingress_rule" "clients" {
  count                        = length(var.client_security_group_ids)
  security_group_id            = aws_security_group.node.id
  description                  = "Kafka clients: the region's services"
  referenced_security_group_id = var.client_security_group_ids[count.index]
  ip_protocol                  = "tcp"
  from_port                    = 9092
  to_port                      = 9092
}

resource "aws_vpc_security_group_ingress_rule" "cluster" {
  security_group_id            = aws_security_group.node.id
  description                  = "Replication (9092) and KRaft controller (9093) between Kafka nodes"
  referenced_security_group_id = aws_security_group.node.id
  ip_protocol                  = "tcp"
  from_port                    = 9092
  to_port                      = 9093
}

resource "aws_vpc_security_group_egress_rule" "cluster" {
  security_group_id            = aws_security_group.node.id
  description                  = "Replication and KRaft to the other Kafka nodes"
  referenced_security_group_id = aws_security_group.node.id
  ip_protocol                  = "tcp"
  from_port                    = 9092
  to_port                      = 9093
}

resource "aws_vpc_security_group_egress_rule" "https" {
  #checkov:skip=CKV_AWS_382:HTTPS out through the NAT gateway is needed for the Kafka download, package updates and the SSM and KMS APIs.
  security_group_id = aws_security_group.node.id
  description       = "HTTPS to AWS APIs and archive.apache.org through the NAT gateway"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
}

# Reached through SSM; needs no other AWS API.
module "role" {
  source      = "../instance-role"
  name_prefix = "geobroker-${var.name}-kafka-"
  tags        = var.tags
}

resource "aws_instance" "node" {
  count                       = local.count
  ami                         = var.ami_id
  instance_type               = var.instance_type
  subnet_id                   = var.subnet_ids[var.brokers[count.index].az]
  private_ip                  = var.brokers[count.index].ip
  vpc_security_group_ids      = [aws_security_group.node.id]
  iam_instance_profile        = module.role.instance_profile_name
  associate_public_ip_address = false
  ebs_optimized               = true
  monitoring                  = true

  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = 30
    encrypted   = true
    kms_key_id  = var.kms_key_arn
  }

  user_data = templatefile("${path.module}/templates/cloud-init.yaml.tftpl", {
    kafka_version     = var.kafka_version
    server_properties = local.server_properties[count.index]
    cluster_id        = local.cluster_id
    heap_mb           = var.heap_mb
  })

  tags = merge(var.tags, { Name = "geobroker-${var.name}-kafka-${count.index}", Role = "kafka" })

  lifecycle {
    ignore_changes = [ami]
  }
}

resource "aws_ebs_volume" "data" {
  count             = local.count
  availability_zone = var.azs[var.brokers[count.index].az]
  type              = "gp3"
  size              = var.data_volume_gb
  encrypted         = true
  kms_key_id        = var.kms_key_arn
  tags              = merge(var.tags, { Name = "geobroker-${var.name}-kafka-${count.index}-data" })
}

resource "aws_volume_attachment" "data" {
  count       = local.count
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.data[count.index].id
  instance_id = aws_instance.node[count.index].id
}
